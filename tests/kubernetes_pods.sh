#!/bin/sh
# Every pod template, whatever holds it (SPEC §13 "Kubernetes", §17): the
# attack forms of issue 19 that passed with exit 0, named explicitly and
# with --strict, and variants; namespaces in keys and 0.2's allowlist keys;
# an object sandlint cannot place; hostile objects in bounded time.
. "${abs_top_srcdir:?}/tests/lib.sh"
make_scratch
cd "$scratch"

# --- the attack forms ----------------------------------------------------------
cat > challenge.yaml <<'YAML'
apiVersion: kctf.dev/v1
kind: Challenge
metadata: {name: kvm-escape}
spec:
  image: eu.gcr.io/ctf/kvm-escape
  podTemplate:
    template:
      spec:
        automountServiceAccountToken: false
        containers:
          - name: challenge
            securityContext: {privileged: true}
        volumes:
          - name: kvm
            hostPath: {path: /dev/kvm}
YAML
expect_status 1 "a kCTF Challenge fails the run" -- --strict --format json challenge.yaml
contains "$out" '"key": "Challenge/kvm-escape/challenge:securityContext.privileged"' \
    "its challenge container's privileged mode"
contains "$out" '"key": "Challenge/kvm-escape:volumes:/dev/kvm"' "its hostPath /dev/kvm"
contains "$out" "that the kCTF operator adds to every challenge container grants the Linux capability 'SYS_ADMIN'" \
    "what the operator adds, said so"
contains "$out" "the AppArmor annotation that the kCTF operator adds" "and the unconfined AppArmor profile"

cat > workflow.yaml <<'YAML'
apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {name: eval}
spec:
  automountServiceAccountToken: false
  entrypoint: run
  templates:
    - name: run
      container:
        image: python:3.12
        securityContext: {privileged: true}
YAML
expect_status 1 "an Argo Workflow container" -- --format json workflow.yaml
contains "$out" '"key": "Workflow/eval/run/main:securityContext.privileged"' \
    "keyed by template and Argo's container name"

cat > jobset.yaml <<'YAML'
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: evals}
spec:
  replicatedJobs:
    - name: w
      template:
        spec:
          template:
            spec:
              automountServiceAccountToken: false
              hostNetwork: true
              containers: [{name: w, image: busybox}]
YAML
expect_status 1 "a JobSet" -- --format json jobset.yaml
contains "$out" '"key": "JobSet/evals:hostNetwork"' "its pod's host network"

cat > custom.yaml <<'YAML'
apiVersion: sandboxes.example.com/v1
kind: AgentRun
metadata: {name: agent, namespace: evals}
spec:
  runner:
    podSpec:
      automountServiceAccountToken: false
      containers:
        - name: agent
          image: agent:latest
          securityContext:
            capabilities: {add: [SYS_PTRACE]}
YAML
expect_status 1 "a custom resource holding a pod spec" -- --format json custom.yaml
contains "$out" '"key": "evals/AgentRun/agent/agent:securityContext.capabilities.add:SYS_PTRACE"' \
    "found by its shape"

cat > pv.yaml <<'YAML'
apiVersion: v1
kind: PersistentVolume
metadata: {name: host-root}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]
  hostPath: {path: /var/lib/kubelet}
YAML
expect_status 1 "a hostPath PersistentVolume" -- --format json pv.yaml
contains "$out" '"key": "PersistentVolume/host-root:hostPath:/var/lib/kubelet"' "its host path"

# Variants: a CronWorkflow's workflowSpec, a pod spec inside a List's custom
# resource, a KubeVirt hostDisk, Knative.
cat > variants.yaml <<'YAML'
apiVersion: argoproj.io/v1alpha1
kind: CronWorkflow
metadata: {name: nightly}
spec:
  workflowSpec:
    automountServiceAccountToken: false
    templates:
      - name: main
        script:
          image: python:3.12
          source: print(1)
          securityContext: {privileged: true}
---
apiVersion: v1
kind: List
items:
  - apiVersion: example.com/v1
    kind: Pool
    metadata: {name: pool}
    spec:
      template:
        automountServiceAccountToken: false
        hostIPC: true
        containers: [{name: a, image: busybox}]
---
apiVersion: kubevirt.io/v1
kind: VirtualMachineInstance
metadata: {name: vmi}
spec:
  volumes:
    - name: d
      hostDisk: {path: /dev/sda, type: Disk}
---
apiVersion: serving.knative.dev/v1
kind: Service
metadata: {name: fn}
spec:
  template:
    spec:
      automountServiceAccountToken: false
      containers: [{image: fn, securityContext: {privileged: true}}]
YAML
expect_status 1 "variants" -- --format json variants.yaml
contains "$out" '"key": "CronWorkflow/nightly/main/main:securityContext.privileged"' \
    "a CronWorkflow's script template"
contains "$out" '"key": "Pool/pool:hostIPC"' "a custom resource in a List"
contains "$out" '"key": "VirtualMachineInstance/vmi:hostDisk:/dev/sda"' "KubeVirt's hostDisk"
contains "$out" '"key": "Service/fn/containers[0]:securityContext.privileged"' "a Knative Service"

# --- an object sandlint cannot place --------------------------------------------
cat > unknown.yaml <<'YAML'
apiVersion: example.com/v1
kind: Runner
metadata: {name: r}
spec:
  settings:
    securityContext: {privileged: true}
YAML
expect_status 1 "security settings of an unknown kind fail the run" -- --format json \
    --select SBX008 unknown.yaml
contains "$out" '"rule": "SL008"' "SL008, whatever the selection"
contains "$out" "spec.settings.securityContext is outside anything sandlint reads as a pod spec" \
    "naming the path"
expect_status 1 "and with --strict too" -- --strict unknown.yaml
expect_status 1 "--ignore SL008 cannot make it pass" -- --ignore SL008 unknown.yaml

# --- namespaces -----------------------------------------------------------------
for ns in eval-a eval-b; do
    comment=""
    [ "$ns" = eval-a ] && comment="  # sandlint: ignore[SBX001] -- eval-a's runner is reviewed"
    cat >> runners.yaml <<YAML
apiVersion: apps/v1
kind: Deployment
metadata: {name: runner, namespace: $ns}
spec:
  template:
    spec:
      automountServiceAccountToken: false
      containers:
        - name: r
          image: busybox
          securityContext:
            privileged: true$comment
---
YAML
done
expect_status 1 "the second runner is reported" -- --format json runners.yaml
contains "$out" '"key": "eval-b/Deployment/runner/r:securityContext.privileged"' \
    "keyed with its namespace"
grep '"key": "eval-a/Deployment/runner/r:securityContext.privileged"' "$out" >first || true
contains first '"status": "suppressed"' "the first is suppressed, and only the first"
mkdir project && cp runners.yaml project/
printf '[allowlist sandbox_privileges]\n* = Deployment/runner/r:securityContext.privileged\n' \
    > project/.sandlint.ini
expect_status 0 "a 0.2 entry (no namespace) matches in any namespace" -- --root project \
    --format json project/runners.yaml
contains "$out" '"allowlisted": true' "the eval-b runner is allowlisted"
expect_status 0 "--update-allowlist rewrites it" -- --root project --update-allowlist \
    project/runners.yaml
contains project/.sandlint.ini "runners.yaml = eval-b/Deployment/runner/r:securityContext.privileged" \
    "to the form with the namespace"
lacks project/.sandlint.ini "* = Deployment/runner" "and removes the old entry"
expect_status 0 "the rewritten entries accept the findings" -- --root project \
    project/runners.yaml

# --- hostile objects --------------------------------------------------------------
python3 - <<'PY'
deep = "apiVersion: example.com/v1\nkind: Deep\nmetadata: {name: d}\nspec: " + \
       "{a: " * 100 + "{securityContext: {privileged: true}}" + "}" * 100 + "\n"
open("deep.yaml", "w").write(deep)
pods = ["apiVersion: example.com/v1", "kind: Many", "metadata: {name: m}", "spec:",
        "  pods:"]
for i in range(1100):
    pods.append("    - {containers: [{name: c, image: busybox}]}")
open("many.yaml", "w").write("\n".join(pods) + "\n")
# Aliases: 9 levels of 10 repeats reach a billion paths to one pod spec.
lines = ["apiVersion: example.com/v1", "kind: Bomb", "metadata: {name: b}",
         "x0: &a0 {containers: [{name: c, image: busybox, securityContext: {privileged: true}}]}"]
for i in range(1, 10):
    lines.append("x%d: &a%d [%s]" % (i, i, ", ".join(["*a%d" % (i - 1)] * 10)))
open("bomb.yaml", "w").write("\n".join(lines) + "\n")
PY
expect_status 1 "an object nested past the walk's depth" -- --format json deep.yaml
contains "$out" "nested deeper than 64 levels" "fails with a clear finding"
expect_status 1 "an object with more than 1000 pod specs" -- --format json many.yaml
contains "$out" "more than 1000 pod specs in one Kubernetes object" "fails with a clear finding"
start=$(date +%s)
expect_status 1 "an alias bomb of pod specs" -- --format json bomb.yaml
elapsed=$(( $(date +%s) - start ))
[ "$elapsed" -lt 20 ] && pass "in bounded time (${elapsed}s)" || fail "took ${elapsed}s"
contains "$out" '"key": "Bomb/b/c:securityContext.privileged"' "the pod spec it repeats is read once"
# podSpecPatch: text parsed inside the file, bounded.
python3 - <<'PY'
inner = ["x0: &a0 {name: main, image: i}"]
for i in range(1, 6):
    inner.append("x%d: &a%d [%s]" % (i, i, ", ".join(["*a%d" % (i - 1)] * 10)))
inner.append("containers: [*a0]")
body = "\n".join("        " + line for line in inner)
big = "{containers: [" + ", ".join("{name: c%d, image: i}" % i for i in range(6000)) + "]}"
open("patches.yaml", "w").write(
    "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata: {name: p}\nspec:\n"
    "  automountServiceAccountToken: false\n  templates:\n"
    "    - name: bomb\n      container: {image: i}\n      podSpecPatch: |\n" + body + "\n"
    "    - name: big\n      container: {image: i}\n      podSpecPatch: '" + big + "'\n")
PY
start=$(date +%s)
expect_status 1 "podSpecPatch strings aliased, or too large" -- --format json patches.yaml
elapsed=$(( $(date +%s) - start ))
[ "$elapsed" -lt 20 ] && pass "in bounded time (${elapsed}s)" || fail "took ${elapsed}s"
lacks "$out" "podSpecPatch repeats its nodes" "an aliased patch is placed once per node, and read"
contains "$out" "podSpecPatch is not one YAML or JSON mapping (or exceeds 10000 nodes)" \
    "a patch over the node limit fails the run"
# Argo inline templates nested through aliases: each read once, 8 deep.
python3 - <<'PY'
lines = ["apiVersion: argoproj.io/v1alpha1", "kind: Workflow", "metadata: {name: w}",
         "spec:", "  automountServiceAccountToken: false",
         "  x0: &i0 {name: s, inline: {container: {image: i, securityContext: "
         "{privileged: true}}}}"]
for i in range(1, 12):
    lines.append("  x%d: &i%d {name: s, inline: {steps: [[%s]]}}"
                 % (i, i, ", ".join(["*i%d" % (i - 1)] * 10)))
lines.append("  templates: [{name: main, steps: [[%s]]}]" % ", ".join(["*i11"] * 10))
open("inline.yaml", "w").write("\n".join(lines) + "\n")
PY
start=$(date +%s)
expect_status 1 "Argo inline templates aliased and nested" -- --format json inline.yaml
elapsed=$(( $(date +%s) - start ))
[ "$elapsed" -lt 20 ] && pass "in bounded time (${elapsed}s)" || fail "took ${elapsed}s"
contains "$out" "Argo inline templates nested more than 8 deep" "the nesting is bounded"
finish
