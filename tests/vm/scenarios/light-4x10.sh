# Light load (issue 12): 4 stress-ng workers at 10%, stock vs power vs
# performance, beside plan and sim for the same load.
. /scenarios/guest-lib.sh
. /scenarios/light-lib.sh
light_scenario light-4x10 4 10 8
