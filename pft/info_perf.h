/* info_perf.h - pft info --perf (info_perf.c). */
#ifndef PFT_INFO_PERF_H
#define PFT_INFO_PERF_H

/* Print the trace units of perf.data @path; returns the exit code. */
int info_perf(const char *path, int format);

#endif
