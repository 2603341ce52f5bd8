# Light load (issue 12): 16 stress-ng workers at 30% (4.8 CPUs of work),
# stock vs power vs performance, beside plan and sim for the same load.
. /scenarios/guest-lib.sh
. /scenarios/light-lib.sh
light_scenario light-16x30 16 30 8
# once settled (2 s): the packages plan uses for the load measured, at most
# 3 mask changes. (The issue asked for one package, when plan chose one;
# with the refit model plan spreads 16 x 0.3 over both packages at the
# lowest clock, 85.0 W, against 107.2 W for 8 cores at 0.6 on one: the
# package-wide clock would have to rise. Live now follows plan.)
light_report light-16x30 power 16 0.3 >/dev/null
[ "$ROW_PKGS" = "$ROW_PLAN_PKGS" ]; check light-16x30-packages-as-plan $? "packages the workers were on (sampled, after 2 s): at most $ROW_PKGS; plan: $ROW_PLAN_PKGS"
[ "$ROW_CHANGES" -le 3 ]; check light-16x30-few-changes $? "$ROW_CHANGES mask changes after 2 s"
