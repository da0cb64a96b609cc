// SPDX-License-Identifier: GPL-2.0-only
/*
 * ns_trace_fork() (src/trace/fork.c): it forks when the process has one
 * thread, refuses (EBUSY) while another runs, and the child dies of a crash
 * with the default action, never through a handler the parent installed
 * (the screen's calls endwin(), which would reset the parent's terminal).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nurseshark/trace.h"
#include "check.h"

#define HANDLER_RAN 42

#if defined(__SANITIZE_THREAD__)
#define TSAN_THREADS 1
#else
#define TSAN_THREADS 0
#endif

/* Stands for the screen's fatal-signal handler: leaves a trace of itself. */
static void on_fatal(int sig)
{
	_exit(HANDLER_RAN);
}

static void *wait_on_pipe(void *arg)
{
	int *fd = arg;
	char c;

	while (read(*fd, &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* Fork, let the child crash with @sig; its wait status. */
static int crash_child(int sig, int *status)
{
	pid_t pid = ns_trace_fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		raise(sig);
		_exit(0);
	}
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

int main(void)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction sa;
	pthread_t thread;
	int fds[2], status = 0, ret, n;
	unsigned i;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	n = ns_trace_nr_threads();
	CHECK(n == 1, "fork: one thread counted at start (%d)", n);

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_fatal;
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaction(fatal[i], &sa, NULL);
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		ret = crash_child(fatal[i], &status);
		CHECK(!ret && WIFSIGNALED(status) && WTERMSIG(status) == fatal[i],
		      "fork: a child that gets %s dies of it, not through the parent's handler "
		      "(ret %d, %s %d)", strsignal(fatal[i]), ret,
		      WIFSIGNALED(status) ? "signal" : "exit status",
		      WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	}
	/* the parent's own handlers are left as they were */
	sigaction(SIGSEGV, NULL, &sa);
	CHECK(sa.sa_handler == on_fatal, "fork: the parent keeps its fatal-signal handler");

	if (pipe(fds) || pthread_create(&thread, NULL, wait_on_pipe, &fds[0])) {
		FAIL("fork: cannot start a thread");
		return 1;
	}
	/* ThreadSanitizer's own thread starts with our first: one more there */
	n = ns_trace_nr_threads();
	CHECK(n == 2 + TSAN_THREADS, "fork: %d threads counted while one waits (%d)",
	      2 + TSAN_THREADS, n);
	errno = 0;
	pid = ns_trace_fork();
	if (pid == 0)
		_exit(0);	/* a fork that should not have happened */
	CHECK(pid < 0 && errno == EBUSY,
	      "fork: refused with EBUSY while another thread runs (pid %d, %s)", (int)pid,
	      strerror(errno));
	if (pid > 0)
		waitpid(pid, NULL, 0);
	if (write(fds[1], "x", 1) != 1)
		FAIL("fork: cannot wake the thread");
	pthread_join(thread, NULL);

	ret = crash_child(SIGSEGV, &status);
	CHECK(!ret && WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
	      "fork: allowed again once the thread is joined (ret %d)", ret);
	return check_failures ? 1 : 0;
}
