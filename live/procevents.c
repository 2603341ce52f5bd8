// SPDX-License-Identifier: MIT
/*
 * Births from the kernel's process events connector (netlink,
 * CONFIG_PROC_EVENTS): what a quiet interval needs to know (was a task
 * born that may be ours?) without walking PIDs in /proc.
 *
 * The kernel sends a message to every listener for each fork, exec, exit,
 * comm change... on the machine. We never wait on the socket: each interval
 * drains what queued since the last (MSG_DONTWAIT), so it adds no wake-up of
 * its own. A lost message (ENOBUFS: the socket's buffer filled between two
 * intervals) counts as a birth that may be ours: the interval scans.
 *
 * Listening needs CAP_NET_ADMIN in the initial network namespace; the
 * kernel acknowledges the subscription with a PROC_EVENT_NONE message
 * carrying an error code, which is how a kernel without the connector (no
 * answer), a missing capability (EPERM) or a sandbox without netlink
 * (socket() fails) is told apart. Any of them: the caller keeps finding
 * births from /proc/loadavg's last PID (ctl.c).
 */
#include <errno.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "live_int.h"

/* the kernel answers the subscription from within our send(), so the
 * answer is queued before send() returns: this only covers other
 * listeners' messages ahead of it, and bounds the start-up of a run on a
 * kernel that never answers */
#define CN_ACK_WAIT_MS 100
#define CN_RCVBUF (4 << 20)

/* LISTEN or IGNORE: a netlink header, a connector header and the
 * operation, laid out in a byte buffer (a struct holding struct cn_msg,
 * whose data is a flexible array, before another field is a GNU extension) */
static int cn_send_op(int fd, enum proc_cn_mcast_op op, unsigned ack)
{
	char m[NLMSG_HDRLEN + sizeof(struct cn_msg) + sizeof(op)]
		__attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr h;
	struct cn_msg c;

	memset(m, 0, sizeof(m));
	memset(&h, 0, sizeof(h));
	memset(&c, 0, sizeof(c));
	h.nlmsg_len = sizeof(m);
	h.nlmsg_type = NLMSG_DONE;
	h.nlmsg_pid = (unsigned)getpid();
	c.id.idx = CN_IDX_PROC;
	c.id.val = CN_VAL_PROC;
	/* the kernel answers with our ack + 1 (its own sequence number
	 * replaces ours in every message it sends) */
	c.ack = ack;
	c.len = sizeof(op);
	memcpy(m, &h, sizeof(h));
	memcpy(m + NLMSG_HDRLEN, &c, sizeof(c));
	memcpy(m + NLMSG_HDRLEN + sizeof(c), &op, sizeof(op));
	return send(fd, m, sizeof(m), 0) == (ssize_t)sizeof(m) ? 0 : -errno;
}

/* The proc event in one received datagram, copied into *e (zero-filled
 * past what the kernel sent: the event sits at byte 36 of the datagram, not
 * aligned for struct proc_event, so it is never read in place), and its
 * connector header into *cm when asked; 0, or -1 when the datagram is not one */
static int cn_event(const char *buf, ssize_t n, struct proc_event *e, struct cn_msg *cm)
{
	struct nlmsghdr h;
	struct cn_msg c;
	size_t len;

	if (n < (ssize_t)(NLMSG_HDRLEN + sizeof(c)))
		return -1;
	memcpy(&h, buf, sizeof(h));
	if (h.nlmsg_len > (unsigned)n || h.nlmsg_len < NLMSG_HDRLEN + sizeof(c) ||
	    h.nlmsg_type == NLMSG_ERROR || h.nlmsg_type == NLMSG_NOOP)
		return -1;
	memcpy(&c, buf + NLMSG_HDRLEN, sizeof(c));
	if (c.id.idx != CN_IDX_PROC || c.id.val != CN_VAL_PROC ||
	    c.len < offsetof(struct proc_event, event_data) ||
	    h.nlmsg_len < NLMSG_HDRLEN + sizeof(c) + c.len)
		return -1;
	len = c.len < sizeof(*e) ? c.len : sizeof(*e);
	memset(e, 0, sizeof(*e));
	memcpy(e, buf + NLMSG_HDRLEN + sizeof(c), len);
	if (cm)
		*cm = c;
	return 0;
}

static double ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) * 1e3 + (t.tv_nsec - t0->tv_nsec) / 1e6;
}

int ps_live_procevents_open(struct ps_live *l, char *why, size_t len)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC };
	char buf[512] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct timespec t0;
	int fd, r, size = CN_RCVBUF, overflowed = 0;
	unsigned nonce;

	l->cn_fd = -1;
	if (l->cfg.root && l->cfg.root[0] && strcmp(l->cfg.root, "/")) {
		snprintf(why, len, "a stand-in /proc (%s)", l->cfg.root);
		return -ENOTSUP;
	}
	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_CONNECTOR);
	if (fd < 0) {
		r = -errno;
		snprintf(why, len, "no netlink connector socket: %s", strerror(errno));
		return r;
	}
	/* room for a few thousand events between two intervals; FORCE passes
	 * rmem_max with CAP_NET_ADMIN, which listening needs anyway */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a))) {
		r = -errno;
		snprintf(why, len, "bind: %s%s", strerror(errno),
			 errno == EPERM ? " (it needs CAP_NET_ADMIN)" : "");
		goto fail;
	}
	/* a number of our own: another listener's subscription is answered
	 * to every listener, ours is the one that comes back with it + 1
	 * (below 2^30: the kernel adds one to it as an int) */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	nonce = (((unsigned)getpid() * 2654435761u) ^ (unsigned)t0.tv_nsec) & 0x3fffffffu;
	r = cn_send_op(fd, PROC_CN_MCAST_LISTEN, nonce);
	if (r) {
		snprintf(why, len, "subscribe: %s", strerror(-r));
		goto fail;
	}
	/* the kernel's answer: a PROC_EVENT_NONE with its error code (other
	 * listeners' answers and real events may come first) */
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int left = CN_ACK_WAIT_MS - (int)ms_since(&t0);
		struct proc_event ev;
		struct cn_msg cm;
		ssize_t n;
		int ready = left > 0 && poll(&p, 1, left) > 0;

		if (!ready && overflowed) {
			/* events overflowed our buffer before the answer could
			 * be read: the kernel has the connector and sends to us,
			 * and it counted our subscription within send() (bind
			 * passed the same capability check). Listening, with
			 * a scan first for what was lost. */
			break;
		}
		if (!ready) {
			r = -ENOTSUP;
			snprintf(why, len, "no answer from the kernel in %d ms "
				 "(a kernel without CONFIG_PROC_EVENTS, or another network namespace)",
				 CN_ACK_WAIT_MS);
			goto fail;
		}
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && errno == ENOBUFS)
			overflowed = 1;
		if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == ENOBUFS))
			continue;
		if (n < 0) {
			r = -errno;
			snprintf(why, len, "recv: %s", strerror(errno));
			goto fail;
		}
		if (cn_event(buf, n, &ev, &cm) || ev.what != PROC_EVENT_NONE ||
		    cm.ack != nonce + 1)
			continue;
		if (ev.event_data.ack.err) {
			r = -(int)ev.event_data.ack.err;
			snprintf(why, len, "listening refused: %s (it needs CAP_NET_ADMIN)",
				 strerror((int)ev.event_data.ack.err));
			goto fail;
		}
		break;
	}
	l->cn_fd = fd;
	l->cn_births = 1; /* whatever came before the subscription: scan */
	return 0;
fail:
	close(fd);
	return r;
}

/*
 * One event: may it bring a task of ours? A fork or clone of a kernel
 * thread (kthreadd's children) never does. The daemon takes any other new
 * task for its own, and an exec or a process's comm change too (its
 * filters match a process's name; a thread's rename is not one). run: a
 * new thread of a process it read, or a child of one (the kernel sends a
 * fork's message before the child runs, so a child of a new process comes
 * after its parent's message, which already said "ours" if the parent
 * was).
 */
static int cn_ours(const struct ps_live *l, const struct proc_event *e)
{
	switch (e->what) {
	case PROC_EVENT_FORK:
		if (e->event_data.fork.parent_tgid == 2 || e->event_data.fork.parent_pid == 2 ||
		    e->event_data.fork.child_tgid == 2)
			return 0;
		return l->cfg.whole_system ||
		       ps_live_known_process(l, (pid_t)e->event_data.fork.parent_tgid) ||
		       ps_live_known_process(l, (pid_t)e->event_data.fork.child_tgid);
	case PROC_EVENT_EXEC:
		return l->cfg.whole_system;
	case PROC_EVENT_COMM:
		/* the filters match a process's name (its main thread's): a
		 * thread naming itself (Java, browsers: thousands of them)
		 * changes nothing they see */
		return l->cfg.whole_system &&
		       e->event_data.comm.process_pid == e->event_data.comm.process_tgid;
	default:
		return 0; /* exits, ids, ptrace, core dumps: nothing to confine */
	}
}

int ps_live_procevents_drain(struct ps_live *l)
{
	char buf[4096] __attribute__((aligned(NLMSG_ALIGNTO)));
	int k;

	if (l->cn_fd < 0)
		return -1;
	/* bounded: a fork storm larger than this is a scan anyway */
	for (k = 0; k < 65536; k++) {
		struct proc_event ev;
		ssize_t n = recv(l->cn_fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENOBUFS) {
			l->cn_lost++;
			l->cn_births = 1; /* messages lost: anything may have been born */
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
			/* a socket that fails otherwise tells nothing more:
			 * back to /proc/loadavg, and this interval scans */
			lg(l, "proc connector: recv: %s; new tasks found from /proc/loadavg's last PID from now on",
			   strerror(errno));
			ps_live_procevents_close(l);
			return 1;
		}
		if (n <= 0)
			break;
		l->cn_events++;
		if (cn_event(buf, n, &ev, NULL))
			continue;
		if (!l->cn_births && cn_ours(l, &ev))
			l->cn_births = 1;
		/* an exec: that process is looked at afresh at the next scan
		 * (a shell of ours that became `powersched run`) */
		if (ev.what == PROC_EVENT_EXEC && l->cfg.whole_system)
			l->execs[l->nexecs++ % PS_LIVE_NR_EXECS] =
				(pid_t)ev.event_data.exec.process_tgid;
		/* lineage: a thread of ours made this one (it may be gone, and
		 * its child reparented, by the next scan) */
		if (ev.what == PROC_EVENT_FORK) {
			const struct thr *par = ps_live_find_thr(l,
				(pid_t)ev.event_data.fork.parent_tgid,
				(pid_t)ev.event_data.fork.parent_pid);

			/* or of one born of ours that we have not listed yet */
			if ((par && par->managed == 1) ||
			    (!par && l->nheirs &&
			     ps_live_heir(l, (pid_t)ev.event_data.fork.parent_pid)))
				ps_live_heir_add(l, (pid_t)ev.event_data.fork.child_pid);
		}
	}
	if (k == 65536)
		l->cn_births = 1;
	k = l->cn_births;
	l->cn_births = 0;
	return k;
}

void ps_live_procevents_close(struct ps_live *l)
{
	if (l->cn_fd < 0)
		return;
	/* the kernel counts listeners: tell it we are gone */
	cn_send_op(l->cn_fd, PROC_CN_MCAST_IGNORE, 0);
	close(l->cn_fd);
	l->cn_fd = -1;
}
