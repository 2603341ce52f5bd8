// SPDX-License-Identifier: MIT
/* powersched restore: replay the journals of instances that are gone. */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <sys/prctl.h>

#include "cli.h"
#include "livecmd.h"
#include "ps/live.h"
#include "ps/livectl.h"

static void usage_restore(FILE *f)
{
	fputs("Usage:\n"
	      " powersched restore [options]\n"
	      "\n"
	      "Put back what a run or daemon that did not exit cleanly changed (killed,\n"
	      "or stopped by systemd after TimeoutStopSec): replay the journals of\n"
	      "instances that are gone, as the next run or daemon would at its start.\n"
	      "A journal whose instance still runs is left alone. The unit runs it as\n"
	      "ExecStopPost.\n"
	      "\n"
	      "Options:\n"
	      "     --state-dir DIR   the state directory (default: yours; root's is\n"
	      "                       " PS_SYSTEM_STATE_DIR ")\n"
	      " -q, --quiet           say nothing when there was nothing to put back\n"
	      " -h, --help            display this help\n"
	      "\n"
	      "Exit status: 0 (also when there was nothing to put back), 1 when the\n"
	      "state directory is not private to you, 2 for bad usage.\n",
	      f);
}

int ps_cmd_restore(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "state-dir", required_argument, NULL, 'S' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL;
	char def[1024];
	int c, quiet = 0, loud = 0, journals, threads, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'S': dir = optarg; break;
		case 'q': quiet = 1; break;
		case 'h': usage_restore(stdout); return PS_EXIT_OK;
		default:
			return ps_cli_bad_option("restore", c, argv, opts);
		}
	}
	if (optind < argc) {
		ps_err("restore: unexpected argument '%s'", argv[optind]);
		return PS_EXIT_USAGE;
	}
	if (!dir) {
		/* the name only: whether it is there and private is
		 * ps_live_restore_dir()'s to say, as for --state-dir */
		ps_cli_state_dir(def, sizeof(def), 0);
		dir = def;
	}
	r = ps_live_restore_dir(dir, ps_cli_live_log, &loud, &journals, &threads);
	if (r == -ENOENT) {
		if (!quiet)
			fprintf(stderr, "powersched: restore: nothing to put back (no state "
				"directory %s)\n", dir);
		return PS_EXIT_OK;
	}
	if (r) {
		ps_err("restore: state directory %s: %s", dir,
		       r == -EPERM ? "not a directory of yours that only you can write: refused" :
				     strerror(-r));
		return PS_EXIT_FAIL;
	}
	if (journals)
		fprintf(stderr, "powersched: restore: %d journal(s) of instances that are gone "
			"replayed, %d thread mask(s) put back\n", journals, threads);
	else if (!quiet)
		fprintf(stderr, "powersched: restore: nothing to put back in %s\n", dir);
	return PS_EXIT_OK;
}
