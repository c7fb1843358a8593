#!/bin/sh
# Nothing hardened: each message names the missing flag as the command line writes it.
docker run alpine
