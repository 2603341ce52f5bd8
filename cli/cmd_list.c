// SPDX-License-Identifier: MIT
/*
 * DOC: powersched list
 *
 * The shipped power models: each one's name (for -m), the machine shape
 * its fits line names, what it is (its file's first sentence), and which
 * one plan and sim pick for this machine or for -t TOPO.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ps/power.h"
#include "ps/topo.h"

static void usage(FILE *f)
{
	fputs("Usage:\n"
	      " powersched list [models] [options]\n"
	      "\n"
	      "List the shipped power models: the name to give -m, the machine\n"
	      "shape each is for (its fits line), what it is, and the one plan, sim\n"
	      "and run pick for this machine (or for --topology).\n"
	      "\n"
	      "Options:\n"
	      " -t, --topology TOPO    hwloc synthetic description or lstopo XML file\n"
	      "                        (default: this machine)\n"
	      " -h, --help             display this help\n"
	      "\n"
	      "Exit status: 0 ok, 1 runtime failure, 2 bad usage or input.\n",
	      f);
}

/* the model text's first sentence, after "power model: ", on one line; at
 * most @len - 1 bytes, cut at a word with " ..." */
static void describe(const char *text, char *out, size_t len)
{
	const char *p = strstr(text, "power model: ");
	char full[1024];
	size_t at = 0;

	out[0] = '\0';
	if (!p || len < 8)
		return;
	for (p += 13; *p && at + 1 < sizeof(full); p++) {
		if (*p == '.' && (p[1] == ' ' || p[1] == '\n'))
			break;
		if (*p == '\n') {
			/* the comment goes on on the next line, after "# " */
			while (p[1] == '#' || p[1] == ' ')
				p++;
			full[at++] = ' ';
			continue;
		}
		full[at++] = *p;
	}
	full[at] = '\0';
	if (at < len) {
		memcpy(out, full, at + 1);
		return;
	}
	at = len - 5; /* room for " ..." */
	while (at > 0 && full[at] != ' ')
		at--;
	memcpy(out, full, at);
	strcpy(out + at, " ...");
}

static void shape(const struct ps_model *m, char *out, size_t len)
{
	if (!m->fits[0] && !m->fits[1] && !m->fits[2])
		snprintf(out, len, "any (the fallback)");
	else
		snprintf(out, len, "%d package%s, %d cores, %d PUs", m->fits[0],
			 m->fits[0] == 1 ? "" : "s", m->fits[1], m->fits[2]);
}

int ps_cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *topo_spec = NULL;
	struct ps_topo *topo = NULL;
	struct ps_model pick;
	char why[256], desc[60], fits[48];
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			topo_spec = optarg;
			break;
		case 'h':
			usage(stdout);
			return PS_EXIT_OK;
		default:
			return ps_cli_bad_option("list", c, argv, opts);
		}
	}
	if (optind < argc && strcmp(argv[optind], "models")) {
		ps_err("list: unknown list '%s' (the one there is: models)", argv[optind]);
		return PS_EXIT_USAGE;
	}
	if (optind + 1 < argc) {
		ps_err("list: unexpected argument '%s'", argv[optind + 1]);
		return PS_EXIT_USAGE;
	}
	r = ps_cli_topo(topo_spec, &topo);
	if (r)
		return r;
	r = ps_cli_model_for(NULL, topo, &pick, why, sizeof(why));
	if (r) {
		ps_topo_free(topo);
		return r;
	}
	printf("%-17s %-30s %s\n", "MODEL (-m)", "FITS", "WHAT");
	for (const char *const *n = ps_model_builtin_names(); *n; n++) {
		struct ps_model m;
		char err[256];

		if (ps_model_load(*n, &m, err, sizeof(err))) {
			ps_err("list: built-in model %s: %s", *n, err);
			ps_topo_free(topo);
			return PS_EXIT_FAIL;
		}
		describe(ps_model_builtin(*n), desc, sizeof(desc));
		shape(&m, fits, sizeof(fits));
		printf("%-17s %-30s %s\n", *n, fits, desc);
	}
	if (topo_spec)
		printf("\nFor %s (%d PUs): %s", topo->desc, topo->nr_pus, pick.name);
	else
		printf("\nFor this machine (%d PUs): %s", topo->nr_pus, pick.name);
	printf("%s%s%s\n", why[0] ? " (" : "", why, why[0] ? ")" : "");
	ps_topo_free(topo);
	return PS_EXIT_OK;
}
