/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `nurseshark record`: records the running kernel's events through tracefs
 * into a trace.dat, with no curses and nothing of the viewer. main() hands
 * it the command line when its first word is "record".
 */
#ifndef NS_RECORD_H
#define NS_RECORD_H

/**
 * ns_record_main - run `nurseshark record ARGS...`
 * @argc: the argument count, argv[0] being "record"
 * @argv: the arguments
 *
 * Records, writes the file, leaves the kernel's tracing state as it found
 * it, then (unless --no-view) replaces the process with the viewer on the
 * new file. Errors are one line on stderr.
 * Returns the exit status: 0, 1 on an error, 2 on a usage error.
 */
int ns_record_main(int argc, char **argv);

/**
 * ns_record_live_main - run `nurseshark live ARGS...`, so far without a screen
 * @argc: the argument count, argv[0] being "live"
 * @argv: the arguments: those of record, --duration SECONDS, and --export
 *        or --snapshot COLSxROWS [--keys KEYS]
 *
 * Records for the duration into a temp file, prints it as the viewer's
 * --export or --snapshot does, and removes the file.
 * Returns the exit status: 0, 1 on an error, 2 on a usage error.
 */
int ns_record_live_main(int argc, char **argv);

#endif /* NS_RECORD_H */
