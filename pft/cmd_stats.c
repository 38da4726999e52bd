/* pft stats: the trace bandwidth a PTM configuration needs for an
 * executed-instruction log (bytes per instruction, per packet type), for
 * sizing trace buffers and ports.  Same options as pft encode. */
#include "cli.h"
#include "encode.h"

int cmd_stats(int argc, char **argv)
{
	return encode_main(argc, argv, 1);
}
