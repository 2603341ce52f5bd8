// SPDX-License-Identifier: MIT
/*
 * idle-threads N: a process of N threads that sleep until it is killed
 * (each blocked in pause()), for the daemon's cost at many idle threads
 * (tests/vm/scx/guest.sh). Prints "idle-threads: N ready" once all exist.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_attr_t a;
	long n = argc == 2 ? strtol(argv[1], NULL, 10) : -1;

	if (n < 0 || n > 100000) {
		fprintf(stderr, "usage: idle-threads N (0 to 100000)\n");
		return 2;
	}
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, PTHREAD_STACK_MIN > 65536 ? PTHREAD_STACK_MIN : 65536);
	for (long i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, &a, idle, NULL)) {
			fprintf(stderr, "idle-threads: thread %ld of %ld could not be made\n", i, n);
			return 1;
		}
	}
	printf("idle-threads: %ld ready\n", n);
	fflush(stdout);
	for (;;)
		pause();
}
