"docker build -t x .
docker run --rm \
  --read-only --pids-limit 100 --memory 1g --cpus 1 --user 1000 \
  -p 127.0.0.1:8080:80 --cap-drop ALL x
