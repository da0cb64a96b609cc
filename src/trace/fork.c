// SPDX-License-Identifier: GPL-2.0-only
/*
 * fork() for the three places that run code in a child process: the
 * open's crash guard (open.c), the filter parser's probe (filter.c) and the
 * search split (model/search.c). A child of a process with other threads
 * inherits their locks held (the tep lock, libtracecmd's handle lock, a
 * worker's half-written state) with nobody left to release them, so these
 * children are only safe when the caller is the process's only thread. That
 * used to be a comment; ns_trace_fork() enforces it by counting the entries
 * of /proc/self/task, which sees every thread of the process, ours and any a
 * library started, where a counter of our own pthread_create()s would miss
 * the latter. Without /proc it cannot count and forks as before.
 * pthread_join() returns when the kernel clears the thread's id, which it
 * does while the thread exits, before its /proc/self/task entry goes: a
 * thread just joined can still be counted for a moment (seen under load,
 * tests/files.sh's -F on several files). So a count over one is looked at
 * again for up to 200 ms before the fork is refused; a thread that really
 * runs is still there then, and the caller is refused as before.
 *
 * The child also gets the default action back for the fatal signals: the
 * screen's handler (tui/screen.c) calls endwin(), which in a crashing child
 * would reset the terminal under the parent's still-running screen. A crash
 * in a child is what these children exist to catch, so it must die quietly.
 * The screen's other handlers only note a signal for its loop, which the
 * child does not run: a child keeping them would outlive a Ctrl-C or a
 * hang-up, so those get their default action back too.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include <nurseshark/trace.h>
#include <nurseshark/util.h>

/*
 * Threads of the process that are not the program's: ThreadSanitizer runs
 * one of its own from the first pthread_create() on, and makes fork() safe
 * around it (it holds its locks across the call).
 */
#if defined(__SANITIZE_THREAD__)
#define NS_FOREIGN_THREADS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NS_FOREIGN_THREADS 1
#endif
#endif
#ifndef NS_FOREIGN_THREADS
#define NS_FOREIGN_THREADS 0
#endif

/* The threads of this process, or -1 if /proc cannot say. */
int ns_trace_nr_threads(void)
{
	struct dirent *d;
	int n = 0;
	DIR *dir;

	dir = opendir("/proc/self/task");
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.')
			n++;
	closedir(dir);
	return n;
}

/**
 * ns_trace_fork - fork(), refused while another thread runs
 *
 * Returns what fork() returns; -1 with errno EBUSY when the process has
 * more than one thread (nothing is forked). stdout and stderr are flushed
 * first so that the child does not print the parent's buffered output
 * again. In the child, the fatal signals (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGABRT) and those that end or stop us (SIGINT, SIGTERM, SIGHUP, SIGQUIT,
 * SIGTSTP, SIGCONT, SIGWINCH) have their default action.
 */
pid_t ns_trace_fork(void)
{
	static const int reset[] = {
		SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
		SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT, SIGWINCH,
	};
	size_t i;
	pid_t pid;

	for (i = 0; ns_trace_nr_threads() > 1 + NS_FOREIGN_THREADS; i++) {
		const struct timespec ms = { 0, 1000000 };

		if (i == 200) {
			errno = EBUSY;
			return -1;
		}
		nanosleep(&ms, NULL);
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0)
		for (i = 0; i < NS_ARRAY_SIZE(reset); i++)
			signal(reset[i], SIG_DFL);
	return pid;
}
