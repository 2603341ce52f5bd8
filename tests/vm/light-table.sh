#!/bin/sh
# The light-load table: "PSVM row" lines of the light-* scenarios on stdin
# (fields: name mode load measured-util allowed-mean allowed-min-max plan
# plan-measured sim-allowed changes sim-changes cpus maxpkgs bogo%), one
# markdown table on stdout.
awk '
BEGIN {
	print "| scenario | mode | load | util measured | live PUs mean (min-max) | plan PUs (nominal / measured util) | sim PUs | mask changes: live after 2 s / sim whole run | CPUs used (sampled) | packages | bogo-ops vs stock |"
	print "|---|---|---|---|---|---|---|---|---|---|---|"
}
$1 == "PSVM" && $2 == "row" {
	printf "| %s | %s | %s | %s | %s (%s) | %s | %s | %s / %s | %s | %s | %s%% |\n",
		$3, $4, $5, $6, $7, $8, ($9 == "-" ? "-" : $9 " / " $10), ($11 == "-" ? "-" : sprintf("%.1f", $11)),
		$12, $13, $14, $15, $16
}'
