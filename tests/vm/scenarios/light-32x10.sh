# Light load (issue 12): 32 stress-ng workers at 10%, stock vs power vs
# performance, beside plan and sim for the same load.
. /scenarios/guest-lib.sh
. /scenarios/light-lib.sh
light_scenario light-32x10 32 10 8
