// SPDX-License-Identifier: MIT
/*
 * DOC: power-profiles-daemon over sd-bus
 *
 * See include/ps/ppd.h. The D-Bus API (names, paths, the ActiveProfile
 * property and its three values) is power-profiles-daemon's, documented in
 * its README and its net.hadess.PowerProfiles.xml introspection data.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

#include "ps/ppd.h"
#include "ps/source.h"

#define PROPS "org.freedesktop.DBus.Properties"

static const struct {
	const char *name, *path, *iface;
} ppd_names[] = {
	{ "org.freedesktop.UPower.PowerProfiles", "/org/freedesktop/UPower/PowerProfiles",
	  "org.freedesktop.UPower.PowerProfiles" },
	{ "net.hadess.PowerProfiles", "/net/hadess/PowerProfiles",
	  "net.hadess.PowerProfiles" },
};
#define NR_NAMES (int)(sizeof(ppd_names) / sizeof(ppd_names[0]))

struct ps_ppd {
	sd_bus *bus;
	int which;         /* index into ppd_names, -1: none answers */
	char owner[256];   /* the unique name owning it: signals only from there */
	char profile[32];
	int dirty;         /* ask again (an owner changed, a value invalidated) */
	int retry;         /* polls until the next connection attempt */
	int reask;         /* polls until a name that did not answer is asked again */
	int held;          /* index of the name that gave us a hold */
};

/* A name nobody owns is an answer ("no daemon"); anything else (a timeout,
 * a daemon too busy to answer in time) is not, and is asked again later. */
static int no_owner(const sd_bus_error *err)
{
	return sd_bus_error_has_name(err, SD_BUS_ERROR_SERVICE_UNKNOWN) ||
	       sd_bus_error_has_name(err, SD_BUS_ERROR_NAME_HAS_NO_OWNER);
}

static void set_profile(struct ps_ppd *p, const char *v)
{
	size_t i;

	/* a profile name is short and plain; anything else counts as none */
	for (i = 0; v[i]; i++)
		if (i >= sizeof(p->profile) - 1 || v[i] < '!' || v[i] > '~') {
			p->profile[0] = '\0';
			return;
		}
	memcpy(p->profile, v, i + 1);
}

/* Ask one name for ActiveProfile (never starting the daemon), waiting at
 * most half a second: the daemon's interval waits on it. 0, -ENOENT when
 * nobody owns the name, or another -errno (-ETIMEDOUT: ask again later). */
static int ask(struct ps_ppd *p, int k)
{
	sd_bus_error err = SD_BUS_ERROR_NULL;
	sd_bus_message *m = NULL, *reply = NULL;
	const char *v = NULL, *owner = NULL;
	int r;

	r = sd_bus_message_new_method_call(p->bus, &m, ppd_names[k].name,
					   ppd_names[k].path, PROPS, "Get");
	if (r >= 0)
		r = sd_bus_message_append(m, "ss", ppd_names[k].iface, "ActiveProfile");
	if (r >= 0)
		r = sd_bus_message_set_auto_start(m, 0);
	if (r >= 0)
		r = sd_bus_call(p->bus, m, 500000, &err, &reply);
	if (r >= 0)
		r = sd_bus_message_read(reply, "v", "s", &v);
	if (r >= 0) {
		set_profile(p, v);
		sd_bus_message_unref(reply);
		reply = NULL;
		sd_bus_error_free(&err);
		r = sd_bus_call_method(p->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
				       "org.freedesktop.DBus", "GetNameOwner", &err, &reply,
				       "s", ppd_names[k].name);
		if (r >= 0)
			r = sd_bus_message_read(reply, "s", &owner);
		if (r >= 0)
			snprintf(p->owner, sizeof(p->owner), "%s", owner);
	} else if (no_owner(&err)) {
		r = -ENOENT;
	}
	sd_bus_message_unref(m);
	sd_bus_message_unref(reply);
	sd_bus_error_free(&err);
	return r < 0 ? r : 0;
}

/* Find the first name that answers. A name that is owned but did not answer
 * (a timeout: p-p-d busy, or a loaded machine) is asked again a few polls
 * later; before, one slow answer made us deaf to p-p-d until its owner
 * changed, as signals are taken only from a name that answered. */
static void ask_all(struct ps_ppd *p)
{
	int k, r, unsure = 0;

	p->dirty = 0;
	for (k = 0; k < NR_NAMES; k++) {
		r = ask(p, k);
		if (!r) {
			p->which = k;
			return;
		}
		if (r != -ENOENT)
			unsure = 1;
	}
	p->which = -1;
	p->owner[0] = '\0';
	p->profile[0] = '\0';
	if (unsure) {
		p->dirty = 1;
		p->reask = 4;
	}
}

static int on_props(sd_bus_message *m, void *arg, sd_bus_error *ret)
{
	struct ps_ppd *p = arg;
	const char *iface, *key, *v, *sender = sd_bus_message_get_sender(m);
	int r;

	(void)ret;
	if (p->which < 0 || !sender || strcmp(sender, p->owner) ||
	    strcmp(sd_bus_message_get_path(m) ? sd_bus_message_get_path(m) : "",
		   ppd_names[p->which].path))
		return 0;
	if (sd_bus_message_read(m, "s", &iface) < 0 ||
	    strcmp(iface, ppd_names[p->which].iface))
		return 0;
	if (sd_bus_message_enter_container(m, 'a', "{sv}") < 0)
		return 0;
	while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		if (sd_bus_message_read(m, "s", &key) < 0)
			return 0;
		if (!strcmp(key, "ActiveProfile")) {
			if (sd_bus_message_read(m, "v", "s", &v) < 0)
				return 0;
			set_profile(p, v);
		} else if (sd_bus_message_skip(m, "v") < 0) {
			return 0;
		}
		if (sd_bus_message_exit_container(m) < 0)
			return 0;
	}
	if (r < 0 || sd_bus_message_exit_container(m) < 0)
		return 0;
	if (sd_bus_message_enter_container(m, 'a', "s") > 0) {
		while (sd_bus_message_read(m, "s", &key) > 0)
			if (!strcmp(key, "ActiveProfile"))
				p->dirty = 1;
	}
	return 0;
}

static int on_owner(sd_bus_message *m, void *arg, sd_bus_error *ret)
{
	struct ps_ppd *p = arg;
	const char *name;
	int k;

	(void)ret;
	if (sd_bus_message_read(m, "s", &name) < 0)
		return 0;
	for (k = 0; k < NR_NAMES; k++)
		if (!strcmp(name, ppd_names[k].name))
			p->dirty = 1;
	return 0;
}

static int connect_bus(struct ps_ppd *p)
{
	int r, k;

	r = sd_bus_open_system(&p->bus);
	if (r < 0) {
		p->bus = NULL;
		return r;
	}
	for (k = 0; k < NR_NAMES && r >= 0; k++)
		r = sd_bus_match_signal(p->bus, NULL, NULL, ppd_names[k].path, PROPS,
					"PropertiesChanged", on_props, p);
	if (r >= 0)
		r = sd_bus_match_signal(p->bus, NULL, "org.freedesktop.DBus",
					"/org/freedesktop/DBus", "org.freedesktop.DBus",
					"NameOwnerChanged", on_owner, p);
	if (r < 0) {
		p->bus = sd_bus_flush_close_unref(p->bus);
		return r;
	}
	ask_all(p);
	return 0;
}

int ps_ppd_open(struct ps_ppd **out)
{
	struct ps_ppd *p = calloc(1, sizeof(*p));
	int r;

	*out = NULL;
	if (!p)
		return -ENOMEM;
	p->which = -1;
	p->held = -1;
	r = connect_bus(p);
	if (r < 0) {
		free(p);
		return r;
	}
	*out = p;
	return 0;
}

int ps_ppd_poll(struct ps_ppd *p, char *profile, size_t len, const char **name)
{
	int r = 0;

	if (!p->bus) {
		/* lost earlier: try again now and then, not every interval */
		if (p->retry-- > 0 || connect_bus(p) < 0) {
			if (p->retry < 0)
				p->retry = 20;
			r = -ENOTCONN;
		}
	}
	if (p->bus) {
		while ((r = sd_bus_process(p->bus, NULL)) > 0)
			;
		if (r < 0) {
			p->bus = sd_bus_flush_close_unref(p->bus);
			p->which = -1;
			p->profile[0] = '\0';
			p->retry = 20;
		} else if (p->dirty && p->reask-- <= 0) {
			ask_all(p);
		}
	}
	snprintf(profile, len, "%s", p->bus && p->which >= 0 ? p->profile : "");
	if (name)
		*name = p->bus && p->which >= 0 ? ppd_names[p->which].name : NULL;
	return r < 0 ? r : 0;
}

int ps_ppd_map(const char *profile, enum ps_policy *out)
{
	if (!strcmp(profile, "power-saver")) {
		*out = PS_POLICY_POWER;
		return 1;
	}
	if (!strcmp(profile, "performance")) {
		*out = PS_POLICY_PERFORMANCE;
		return 1;
	}
	return 0;
}

const char *ps_ppd_resolve(const char *profile, const char *root, enum ps_policy *out,
			   char *why, size_t len)
{
	size_t n;

	if (profile && profile[0] && ps_ppd_map(profile, out)) {
		snprintf(why, len, "power-profiles-daemon profile %s", profile);
		return "power-profiles-daemon";
	}
	ps_source_resolve(root ? root : "/", out, why, len);
	n = strlen(why);
	if (profile && profile[0] && n + 40 < len) /* balanced: say it was asked */
		snprintf(why + n, len - n, "; power-profiles-daemon %s", profile);
	return strstr(why, "platform_profile") ? "platform_profile" : "power_supply";
}

const char *ps_ppd_resolve_once(const char *root, enum ps_policy *out, char *why, size_t len)
{
	struct ps_ppd *p = NULL;
	char prof[32] = "";
	const char *src;

	/* another tree's files (a test, another machine's /sys): this
	 * machine's daemon says nothing of it */
	if ((!root || !strcmp(root, "/")) && !ps_ppd_open(&p))
		ps_ppd_poll(p, prof, sizeof(prof), NULL);
	src = ps_ppd_resolve(prof, root, out, why, len);
	ps_ppd_close(p);
	return src;
}

int ps_ppd_hold(struct ps_ppd *p, const char *profile, const char *reason,
		unsigned *cookie)
{
	sd_bus_error err = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	uint32_t c = 0;
	sd_bus_message *m = NULL;
	int r = -ENOENT, k;

	if (!p->bus)
		return -ENOENT;
	/* Each name in turn, from the one that answered, with time to answer
	 * (polkit is asked first): a profile read that timed out at open says
	 * nothing about whether the daemon is there. */
	for (k = p->which < 0 ? 0 : p->which; k < NR_NAMES; k++) {
		r = sd_bus_message_new_method_call(p->bus, &m, ppd_names[k].name,
						   ppd_names[k].path, ppd_names[k].iface,
						   "HoldProfile");
		if (r >= 0)
			r = sd_bus_message_append(m, "sss", profile, reason, "powersched");
		if (r >= 0)
			r = sd_bus_message_set_auto_start(m, 0);
		if (r >= 0)
			r = sd_bus_call(p->bus, m, 10 * 1000000ULL, &err, &reply);
		if (r >= 0)
			r = sd_bus_message_read(reply, "u", &c);
		if (r >= 0) {
			*cookie = c;
			p->held = k;
		} else if (no_owner(&err)) {
			r = -ENOENT;
		}
		m = sd_bus_message_unref(m);
		reply = sd_bus_message_unref(reply);
		sd_bus_error_free(&err);
		if (r != -ENOENT)
			break;
		if (p->which >= 0)
			break; /* the name that answered has gone: none to try */
	}
	return r < 0 ? r : 0;
}

int ps_ppd_release(struct ps_ppd *p, unsigned cookie)
{
	sd_bus_error err = SD_BUS_ERROR_NULL;
	int r;

	if (!p->bus || p->held < 0)
		return -ENOENT;
	r = sd_bus_call_method(p->bus, ppd_names[p->held].name, ppd_names[p->held].path,
			       ppd_names[p->held].iface, "ReleaseProfile", &err, NULL, "u",
			       (uint32_t)cookie);
	sd_bus_error_free(&err);
	return r < 0 ? r : 0;
}

void ps_ppd_close(struct ps_ppd *p)
{
	if (!p)
		return;
	sd_bus_flush_close_unref(p->bus);
	free(p);
}
