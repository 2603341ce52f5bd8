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
	      "\n"
	      "Options:\n"
	      " -h, --help     display this help\n"
	      " -V, --version  display version\n"
	      "\n"
	      "Run 'powersched <command> --help' for a command's options.\n",
	      f);
}

int main(int argc, char **argv)
{
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
	if (!strcmp(argv[1], "plan"))
		return ps_cmd_plan(argc - 1, argv + 1);
	if (!strcmp(argv[1], "sim"))
		return ps_cmd_sim(argc - 1, argv + 1);
	if (!strcmp(argv[1], "run"))
		return ps_cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "daemon"))
		return ps_cmd_daemon(argc - 1, argv + 1);
	if (!strcmp(argv[1], "status"))
		return ps_cmd_status(argc - 1, argv + 1);
	if (!strcmp(argv[1], "calibrate"))
		return ps_cmd_calibrate(argc - 1, argv + 1);
	if (!strcmp(argv[1], "restore"))
		return ps_cmd_restore(argc - 1, argv + 1);
	ps_err("unknown command '%s' (see powersched --help)", argv[1]);
	return PS_EXIT_USAGE;
}
