// SPDX-License-Identifier: MIT
/* power-profiles-daemon: what each profile means for auto, no bus, and a
 * daemon that is slow to answer (on a real, private dbus-daemon). */
#include "helpers.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <systemd/sd-bus.h>

#include "ps/ppd.h"

static void test_map(void **state)
{
	enum ps_policy p = PS_POLICY_AUTO;

	(void)state;
	assert_int_equal(ps_ppd_map("power-saver", &p), 1);
	assert_int_equal(p, PS_POLICY_POWER);
	assert_int_equal(ps_ppd_map("performance", &p), 1);
	assert_int_equal(p, PS_POLICY_PERFORMANCE);
	p = PS_POLICY_AUTO;
	/* balanced, none, and what a later daemon may add fall through */
	assert_int_equal(ps_ppd_map("balanced", &p), 0);
	assert_int_equal(ps_ppd_map("", &p), 0);
	assert_int_equal(ps_ppd_map("Performance", &p), 0);
	assert_int_equal(ps_ppd_map("low-power", &p), 0);
	assert_int_equal(p, PS_POLICY_AUTO);
}

/* a system bus that is not there: an error, no connection, no crash */
static void test_no_bus(void **state)
{
	struct ps_ppd *p = (struct ps_ppd *)1;

	(void)state;
	setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/ps-test-bus", 1);
	assert_true(ps_ppd_open(&p) < 0);
	assert_null(p);
	ps_ppd_close(NULL);
	unsetenv("DBUS_SYSTEM_BUS_ADDRESS");
}

/*
 * A slow daemon. The peer below owns net.hadess.PowerProfiles on a private
 * dbus-daemon (the real bus program; the peer serves only the part of
 * p-p-d's documented API we use: ActiveProfile, HoldProfile,
 * ReleaseProfile; the real p-p-d is exercised in the systemd guest, where
 * the same stop is played on it). It is stopped (SIGSTOP) while we connect,
 * so our half-second read of the profile times out, as it did in a loaded
 * CI guest, where `run -p performance` then never took its hold and said
 * nothing. A name that is owned but slow is not "no daemon".
 */
static pid_t bus_pid = -1, peer_pid = -1;
static char bus_dir[64];

static int peer_hold(sd_bus_message *m, void *ud, sd_bus_error *e)
{
	(void)ud;
	(void)e;
	return sd_bus_reply_method_return(m, "u", (uint32_t)42);
}

static int peer_release(sd_bus_message *m, void *ud, sd_bus_error *e)
{
	(void)ud;
	(void)e;
	return sd_bus_reply_method_return(m, "");
}

static int peer_profile(sd_bus *b, const char *path, const char *iface, const char *prop,
			sd_bus_message *reply, void *ud, sd_bus_error *e)
{
	(void)b, (void)path, (void)iface, (void)prop, (void)ud, (void)e;
	return sd_bus_message_append(reply, "s", "power-saver");
}

static const sd_bus_vtable peer_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_PROPERTY("ActiveProfile", "s", peer_profile, 0, 0),
	SD_BUS_METHOD("HoldProfile", "sss", "u", peer_hold, 0),
	SD_BUS_METHOD("ReleaseProfile", "u", "", peer_release, 0),
	SD_BUS_VTABLE_END
};

static void peer_main(const char *addr, int ready)
{
	sd_bus *b = NULL;

	if (sd_bus_new(&b) < 0 || sd_bus_set_address(b, addr) < 0 ||
	    sd_bus_set_bus_client(b, 1) < 0 || sd_bus_start(b) < 0 ||
	    sd_bus_add_object_vtable(b, NULL, "/net/hadess/PowerProfiles",
				     "net.hadess.PowerProfiles", peer_vtable, NULL) < 0 ||
	    sd_bus_request_name(b, "net.hadess.PowerProfiles", 0) < 0)
		_exit(1);
	if (write(ready, "r", 1) != 1)
		_exit(1);
	for (;;) {
		int r = sd_bus_process(b, NULL);

		if (r < 0)
			_exit(1);
		if (!r && sd_bus_wait(b, (uint64_t)-1) < 0)
			_exit(1);
	}
}

static int bus_up(void **state)
{
	char conf[128], addr[160], buf[8];
	int p[2];
	FILE *f;

	(void)state;
	snprintf(bus_dir, sizeof(bus_dir), "/tmp/ps-ppd-test.XXXXXX");
	if (!mkdtemp(bus_dir))
		return -1;
	snprintf(conf, sizeof(conf), "%s/bus.conf", bus_dir);
	snprintf(addr, sizeof(addr), "unix:path=%s/bus", bus_dir);
	f = fopen(conf, "w");
	if (!f)
		return -1;
	fprintf(f, "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration "
		"1.0//EN\" \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
		"<busconfig><type>session</type><listen>%s</listen>"
		"<auth>EXTERNAL</auth><policy context=\"default\"><allow send_destination=\"*\"/>"
		"<allow own=\"*\"/><allow eavesdrop=\"true\"/></policy></busconfig>\n", addr);
	fclose(f);
	if (pipe(p))
		return -1;
	bus_pid = fork();
	if (bus_pid == 0) {
		close(p[0]);
		dup2(p[1], 1);
		execlp("dbus-daemon", "dbus-daemon", "--nofork", "--print-address",
		       "--config-file", conf, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	/* the address is printed once the bus listens */
	if (read(p[0], buf, 1) != 1) {
		print_error("dbus-daemon did not start (is dbus-daemon installed?)\n");
		return -1;
	}
	close(p[0]);
	if (pipe(p))
		return -1;
	peer_pid = fork();
	if (peer_pid == 0) {
		close(p[0]);
		peer_main(addr, p[1]);
	}
	close(p[1]);
	if (read(p[0], buf, 1) != 1)
		return -1;
	close(p[0]);
	setenv("DBUS_SYSTEM_BUS_ADDRESS", addr, 1);
	return 0;
}

static int bus_down(void **state)
{
	char cmd[128];

	(void)state;
	if (peer_pid > 0) {
		kill(peer_pid, SIGKILL);
		kill(peer_pid, SIGCONT);
		waitpid(peer_pid, NULL, 0);
	}
	if (bus_pid > 0) {
		kill(bus_pid, SIGTERM);
		waitpid(bus_pid, NULL, 0);
	}
	unsetenv("DBUS_SYSTEM_BUS_ADDRESS");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", bus_dir);
	return system(cmd) ? -1 : 0;
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* the profile is read again once the daemon answers: auto is not left deaf */
static void test_slow_daemon_read_again(void **state)
{
	struct ps_ppd *p = NULL;
	char prof[32] = "x";
	const char *name = NULL;
	int i;

	(void)state;
	kill(peer_pid, SIGSTOP);
	assert_int_equal(ps_ppd_open(&p), 0);
	assert_non_null(p);
	ps_ppd_poll(p, prof, sizeof(prof), &name);
	assert_string_equal(prof, "");
	kill(peer_pid, SIGCONT);
	for (i = 0; i < 100 && strcmp(prof, "power-saver"); i++) {
		nap_ms(50);
		ps_ppd_poll(p, prof, sizeof(prof), &name);
	}
	assert_string_equal(prof, "power-saver");
	assert_non_null(name);
	assert_string_equal(name, "net.hadess.PowerProfiles");
	ps_ppd_close(p);
}

/* a hold asked after a profile read timed out still reaches the daemon */
static void test_slow_daemon_hold(void **state)
{
	struct ps_ppd *p = NULL;
	unsigned cookie = 0;

	(void)state;
	kill(peer_pid, SIGSTOP);
	assert_int_equal(ps_ppd_open(&p), 0);
	kill(peer_pid, SIGCONT);
	assert_int_equal(ps_ppd_hold(p, "performance", "test", &cookie), 0);
	assert_int_equal(cookie, 42);
	assert_int_equal(ps_ppd_release(p, cookie), 0);
	ps_ppd_close(p);
}

/* and a bus where nobody owns a p-p-d name: no hold, said as -ENOENT */
static void test_no_daemon_hold(void **state)
{
	struct ps_ppd *p = NULL;
	unsigned cookie = 0;

	(void)state;
	kill(peer_pid, SIGKILL);
	kill(peer_pid, SIGCONT);
	waitpid(peer_pid, NULL, 0);
	peer_pid = -1;
	/* the bus drops the name when its owner's connection closes */
	nap_ms(200);
	assert_int_equal(ps_ppd_open(&p), 0);
	assert_int_equal(ps_ppd_hold(p, "performance", "test", &cookie), -ENOENT);
	assert_int_equal(ps_ppd_release(p, cookie), -ENOENT);
	ps_ppd_close(p);
}

/* auto resolved once (plan's path) follows the daemon as run does; a tree
 * of files other than / is not this machine's, and its files alone decide;
 * with no daemon the files decide */
static void test_resolve_once(void **state)
{
	enum ps_policy pol = PS_POLICY_AUTO;
	char why[160];
	const char *src;

	(void)state;
	src = ps_ppd_resolve_once("/", &pol, why, sizeof(why));
	assert_int_equal(pol, PS_POLICY_POWER);
	assert_string_equal(why, "power-profiles-daemon profile power-saver");
	assert_string_equal(src, "power-profiles-daemon");
	pol = PS_POLICY_AUTO;
	src = ps_ppd_resolve_once("/nonexistent-ps-root", &pol, why, sizeof(why));
	assert_int_equal(pol, PS_POLICY_PERFORMANCE); /* no battery there */
	assert_null(strstr(why, "power-profiles-daemon"));
	assert_string_equal(src, "power_supply");
	kill(peer_pid, SIGKILL);
	waitpid(peer_pid, NULL, 0);
	peer_pid = -1;
	nap_ms(200);
	pol = PS_POLICY_AUTO;
	src = ps_ppd_resolve_once("/", &pol, why, sizeof(why));
	assert_true(pol == PS_POLICY_POWER || pol == PS_POLICY_PERFORMANCE);
	assert_null(strstr(why, "power-profiles-daemon"));
	assert_string_not_equal(src, "power-profiles-daemon");
	/* balanced: the files decide, and the reason says the daemon was asked */
	pol = PS_POLICY_AUTO;
	ps_ppd_resolve("balanced", "/nonexistent-ps-root", &pol, why, sizeof(why));
	assert_int_equal(pol, PS_POLICY_PERFORMANCE);
	assert_non_null(strstr(why, "; power-profiles-daemon balanced"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map),
		cmocka_unit_test(test_no_bus),
		cmocka_unit_test_setup_teardown(test_slow_daemon_read_again, bus_up, bus_down),
		cmocka_unit_test_setup_teardown(test_slow_daemon_hold, bus_up, bus_down),
		cmocka_unit_test_setup_teardown(test_no_daemon_hold, bus_up, bus_down),
		cmocka_unit_test_setup_teardown(test_resolve_once, bus_up, bus_down),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
