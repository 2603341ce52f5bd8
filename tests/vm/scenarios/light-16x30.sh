# Light load (issue 12): 16 stress-ng workers at 30% (4.8 CPUs of work),
# stock vs power vs performance, beside plan and sim for the same load.
. /scenarios/guest-lib.sh
. /scenarios/light-lib.sh
light_scenario light-16x30 16 30 8
# once settled (2 s): one package, at most 3 mask changes
light_report light-16x30 power 16 0.3 >/dev/null
[ "$ROW_PKGS" = 1 ]; check light-16x30-one-package $? "packages the workers were on (sampled, after 2 s): at most $ROW_PKGS"
[ "$ROW_CHANGES" -le 3 ]; check light-16x30-few-changes $? "$ROW_CHANGES mask changes after 2 s"
