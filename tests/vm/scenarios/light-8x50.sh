# Light load (issue 12): 8 stress-ng workers at 50%, stock vs power vs
# performance, beside plan and sim for the same load.
. /scenarios/guest-lib.sh
. /scenarios/light-lib.sh
light_scenario light-8x50 8 50 8
