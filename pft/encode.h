/* encode.h - the driver shared by pft encode and pft stats. */
#ifndef PFT_ENCODE_H
#define PFT_ENCODE_H

/* Parse the options, run the PTM model over the log and write the
 * outputs (@stats = 0) or print the byte counts (@stats = 1).  Returns the
 * exit code. */
int encode_main(int argc, char **argv, int stats);

#endif
