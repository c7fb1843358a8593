#!/bin/sh
docker run --privileged alpine
docker run --cap-add SYS_ADMIN "alpine
echo never read --privileged
