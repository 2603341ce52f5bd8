// SPDX-License-Identifier: MIT
/*
 * DOC: powersched, the one-knob placement tool
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#ifndef PS_VERSION
#define PS_VERSION "0.1"
#endif

static void usage(FILE *f)
{
	fputs("Usage:\n"
	      " powersched <command> [options]\n"
	      "\n"
	      "One placement knob (performance, power, auto) across every level\n"
	      "of the machine's topology.\n"
	      "\n"
	      "Commands:\n"
	      " plan     the placement each policy chooses for a load, with\n"
	      "          power, throughput and energy per work\n"
	      " sim      simulate a workload under a policy against a model of\n"
	      "          the kernel scheduler: energy, work, latency, pictures\n"
	      " run      run a command confined to the CPUs the policy picks\n"
	      " daemon   manage the eligible threads of the whole system\n"
	      " status   what the running run and daemon instances are doing\n"
	      " calibrate  measure this machine with RAPL and fit a power model\n"
	      " restore  put back what a killed run or daemon changed\n"
	      " list     the shipped power models, and the one for this machine\n"
	      " help     a command's help: powersched help COMMAND\n"
	      "\n"
	      "Options:\n"
	      " -h, --help     display this help\n"
	      " -V, --version  display version\n"
	      "\n"
	      "Run 'powersched <command> --help' for a command's options.\n",
	      f);
}

static const struct {
	const char *name;
	int (*fn)(int, char **);
} cmds[] = {
	{ "plan", ps_cmd_plan },	   { "sim", ps_cmd_sim },
	{ "run", ps_cmd_run },		   { "daemon", ps_cmd_daemon },
	{ "status", ps_cmd_status },	   { "calibrate", ps_cmd_calibrate },
	{ "restore", ps_cmd_restore },	   { "list", ps_cmd_list },
};

static int (*find_cmd(const char *name))(int, char **)
{
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(cmds[i].name, name))
			return cmds[i].fn;
	return NULL;
}

int main(int argc, char **argv)
{
	int (*fn)(int, char **);

	if (argc < 2) {
		usage(stderr);
		return PS_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return PS_EXIT_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("powersched %s\n", PS_VERSION);
		return PS_EXIT_OK;
	}
	if (!strcmp(argv[1], "help")) {
		/* powersched help [COMMAND]: the same text as COMMAND --help */
		char *hv[] = { argc > 2 ? argv[2] : argv[0], "--help", NULL };

		if (argc < 3) {
			usage(stdout);
			return PS_EXIT_OK;
		}
		if (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help") || !strcmp(argv[2], "help")) {
			puts("Usage:\n powersched help [COMMAND]\n\nThe same text as "
			     "'powersched COMMAND --help'; without COMMAND, 'powersched --help'.");
			return PS_EXIT_OK;
		}
		if (argc > 3) {
			ps_err("help: one command at a time ('%s' is extra)", argv[3]);
			return PS_EXIT_USAGE;
		}
		fn = find_cmd(argv[2]);
		if (!fn) {
			ps_err("help: unknown command '%s' (see powersched --help)", argv[2]);
			return PS_EXIT_USAGE;
		}
		return fn(2, hv);
	}
	fn = find_cmd(argv[1]);
	if (fn)
		return fn(argc - 1, argv + 1);
	ps_err("unknown command '%s' (see powersched --help)", argv[1]);
	return PS_EXIT_USAGE;
}
