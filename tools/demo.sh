#!/bin/sh
# The main job: the plan on this machine, on the seeds' 2 x 8 x 2 Xeon and
# on a hybrid laptop. Power chooses by the model, so in every table its
# watts are at most performance's.
set -eu
PS=$1
top=$(cd "$(dirname "$0")/.." && pwd)
echo "== powersched plan on this machine: one task per PU at 30%"
n=$(nproc)
"$PS" plan --load "${n}x0.3"
echo
echo "== the seeds' machine (2 packages x 8 cores x 2 threads), 16 busy threads"
"$PS" plan --topology "pack:2 core:8 pu:2" --load 16x1.0 --model xeon-e5-2680-2s
echo
echo "== the same machine at light load: 4 tasks at 30%"
"$PS" plan --topology "pack:2 core:8 pu:2" --load 4x0.3 --model xeon-e5-2680-2s
echo
echo "== a hybrid laptop (i7-1260P: 4 P-cores with SMT, 8 E-cores; lstopo XML"
echo "   with its CPU kinds): 4 tasks at 20%"
"$PS" plan --topology "$top/tests/topo/hybrid-laptop-i7-1260p.xml" --load 4x0.2
