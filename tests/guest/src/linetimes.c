// SPDX-License-Identifier: GPL-2.0
/*
 * Helper of run-selftests, not a test itself.
 *
 *   linetimes [-a] [-i IDLE] TIMES_FILE COMMAND [ARG...]
 *
 * Runs COMMAND with its standard output and error on a pseudo-terminal and
 * copies what it writes, unchanged, to our standard output. For every line
 * it ends, TIMES_FILE gets "LINE<TAB>SECONDS": the line's number (from 1)
 * and the seconds since COMMAND started when the line came. Its first line,
 * "# start SECONDS", is COMMAND's start on CLOCK_MONOTONIC, which on arm64
 * runs with the kernel log's timestamps: a kernel message can be matched
 * with the line (the test) it came during.
 *
 * The selftest runners print one line per finished test but never time a
 * test; the gap between two result lines is the later test's duration. On
 * a terminal stdio flushes each line as it is printed; into a pipe or a
 * file it would flush every few kilobytes and blur the gaps.
 *
 * -a appends to TIMES_FILE, continuing its line numbers and its start: the
 * output of a second COMMAND appended to the first's reads as one.
 *
 * -i IDLE kills COMMAND's process group when it has written nothing for
 * IDLE seconds, and says so on its last line: a selftest that hangs costs
 * IDLE seconds, not the guest's whole run.
 *
 * Exits with COMMAND's status, 128 + the signal that killed it, 124 if it
 * was killed for idling, or 127 if it could not be run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

/* A terminal that passes bytes through: no \n -> \r\n, no echo, no signals. */
static int open_raw_pty(int *slave)
{
	struct termios t;
	int master;

	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master))
		return -1;
	*slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	if (*slave < 0 || tcgetattr(*slave, &t))
		return -1;
	cfmakeraw(&t);
	if (tcsetattr(*slave, TCSANOW, &t))
		return -1;
	return master;
}

/* The start and the last line number of an existing TIMES_FILE, for -a. */
static int read_times(const char *path, double *t0, unsigned long *line)
{
	char row[128];
	FILE *f = fopen(path, "r");
	int have_start = 0;

	if (!f)
		return errno == ENOENT ? 0 : -1;
	while (fgets(row, sizeof(row), f)) {
		if (sscanf(row, "# start %lf", t0) == 1)
			have_start = 1;
		else
			sscanf(row, "%lu", line);
	}
	fclose(f);
	return have_start;
}

int main(int argc, char **argv)
{
	int master, slave, status, opt, append = 0, idle = -1, killed = 0;
	unsigned long line = 0;
	char buf[4096], *end;
	double t0 = 0;
	FILE *times;
	pid_t pid;

	while ((opt = getopt(argc, argv, "+ai:")) != -1) {
		switch (opt) {
		case 'a':
			append = 1;
			break;
		case 'i':
			idle = strtol(optarg, &end, 10);
			if (*end || idle <= 0) {
				fprintf(stderr, "linetimes: -i wants seconds > 0, got '%s'\n", optarg);
				return 127;
			}
			break;
		default:
			return 127;
		}
	}
	argc -= optind;
	argv += optind - 1;
	if (argc < 2) {
		fprintf(stderr, "usage: linetimes [-a] [-i IDLE] TIMES_FILE COMMAND [ARG...]\n");
		return 127;
	}
	if (append) {
		append = read_times(argv[1], &t0, &line);
		if (append < 0) {
			fprintf(stderr, "linetimes: %s: %s\n", argv[1], strerror(errno));
			return 127;
		}
	}
	times = fopen(argv[1], append ? "a" : "w");
	if (!times) {
		fprintf(stderr, "linetimes: %s: %s\n", argv[1], strerror(errno));
		return 127;
	}
	master = open_raw_pty(&slave);
	if (master < 0) {
		fprintf(stderr, "linetimes: cannot open a pseudo-terminal (is devpts mounted on /dev/pts?): %s\n",
			strerror(errno));
		return 127;
	}

	if (!append) {
		t0 = now();
		fprintf(times, "# start %.6f\n", t0);
		fflush(times);
	}
	pid = fork();
	if (pid < 0) {
		perror("linetimes: fork");
		return 127;
	}
	if (pid == 0) {
		setpgid(0, 0);
		close(master);
		if (dup2(slave, STDOUT_FILENO) < 0 || dup2(slave, STDERR_FILENO) < 0)
			_exit(127);
		close(slave);
		execvp(argv[2], argv + 2);
		fprintf(stderr, "linetimes: cannot run %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	close(slave);

	/* Read until every writer has closed the terminal: EIO on Linux. */
	for (;;) {
		struct pollfd pfd = { .fd = master, .events = POLLIN };
		ssize_t n;
		double t;
		int ready = poll(&pfd, 1, idle > 0 ? idle * 1000 : -1);

		if (ready < 0 && errno == EINTR)
			continue;
		if (ready == 0) {
			int len = snprintf(buf, sizeof(buf),
					   "linetimes: no output for %d s: killed %s\n",
					   idle, argv[2]);

			kill(-pid, SIGKILL);
			killed = 1;
			fprintf(times, "%lu\t%.6f\n", ++line, now() - t0);
			write_all(STDOUT_FILENO, buf, len);
			break;
		}
		n = read(master, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		t = now() - t0;
		for (ssize_t i = 0; i < n; i++)
			if (buf[i] == '\n')
				fprintf(times, "%lu\t%.6f\n", ++line, t);
		if (write_all(STDOUT_FILENO, buf, n)) {
			perror("linetimes: write");
			break;
		}
	}
	fclose(times);

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror("linetimes: waitpid");
			return 127;
		}
	if (killed)
		return 124;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
