/*
 * pft.h - the public interface of libpft, a decoder for ARM CoreSight PTM
 * trace (Program Flow Trace, PFT v1.0 and v1.1) and ETMv3 trace.
 *
 * This header includes the headers of every layer, include/pft/NAME.h, from
 * the trace sink to what the processor executed.  Each compiles alone, so a
 * program may include only the ones it uses.  Each layer is usable on its
 * own; dependencies point one way (down this table).
 *
 *   prefix                 header    what
 *   ---------------------- --------- --------------------------------------
 *   pft_errstr             common.h  errors: message of a code
 *   pft_errcode            common.h  errors: code of a return value
 *   pft_version            common.h  version (and PFT_VERSION_*)
 *   pft_library_version    common.h  version of the library loaded
 *   pft_isa_               common.h  instruction sets
 *   pft_ptm_config_        common.h  PTM configuration, from registers
 *   pft_dfmt_              frames.h  CoreSight frames -> per-ID bytes
 *   pft_ffmt_              frames.h  per-ID bytes -> CoreSight frames
 *   pft_ptm_pkt_           packets.h PFT bytes -> packets (pft_ptm_packet)
 *   pft_isync_             packets.h I-sync reason names
 *   pft_exception_         packets.h exception names
 *   pft_ptm_enc_           packets.h packets -> PFT bytes
 *   pft_image_             image.h   program memory: buffers, files
 *   pft_mem_               image.h   memory spaces
 *   pft_image_add_elf*     elf.h     ELF files into an image (libelf)
 *   pft_image_add_symbols  elf.h     symbols: ELF, System.map, kallsyms
 *   pft_ptm_flow_          flow.h    PTM packets + image -> executed ranges
 *   pft_elem_              flow.h    flow elements (struct pft_elem)
 *   pft_ctx_               flow.h    context changes in elements
 *   pft_insn_              flow.h    the instructions of a range
 *   pft_iclass_            flow.h    instruction classes
 *   pft_ptm_model_         model.h   instruction log -> PTM packets
 *   pft_event_             config.h  PTM event register expressions
 *   pft_regs_              config.h  PTM register field explanations
 *   pft_etm3_              etm3.h    ETMv3 (Cortex-A5/A7/A8/R4/R5):
 *                                    configuration, packets, flow,
 *                                    encoder, model
 *   pft_pipe_              decode.h  pipeline: bytes -> packets, elements
 *   pft_item_              decode.h  the pipeline's items
 *   pft_protocol_          decode.h  trace protocols
 *   pft_detect_            decode.h  detection: framing, protocol, config
 *   pft_frame_format_      decode.h  framings
 *   pft_listing_           decode.h  pft decode's and pft dump's lines
 *   pft_fit_               decode.h  fit check: configuration, image, trace
 *   pft_info_              decode.h  what a capture holds (pft info)
 *   pft_snap_              input.h   OpenCSD snapshot directories
 *   pft_input_             input.h   files and snapshots, decoded whole
 *   pft_perf_              perf.h    Linux perf.data: reader, writer
 *   pft_input_open_perf    perf.h    perf.data as an input
 *   pft_input_perf_        perf.h    perf.data inputs: mmaps
 *   pft_cov_               views.h   coverage of the executed ranges
 *   pft_fmt_               common.h  names made safe for JSON and text,
 *                                    numbers written fast
 *   pft_lines_, pft_line_  views.h   source lines (DWARF, libdw)
 *   pft_calls_, pft_call_  views.h   calls and returns over the ranges
 *   pft_views_, pft_view_  views.h   profiles, coverage, call graphs
 *   pft_timeline_          views.h   timelines of calls and events
 *   pft_names_             views.h   function labels for outputs
 *
 * Two libraries, as libipt keeps sideband in libipt-sb: a program that only
 * decodes bytes should need neither libelf, libdw nor threads to build or
 * run (doc/howto_libpft.md says more).  libpft decodes bytes: common.h to
 * decode.h in the table, all but elf.h; it needs the C library alone.
 * libpft-io is the companion for what not every program needs: elf.h
 * (libelf), input.h (files, snapshots, parallel decode: threads), perf.h
 * and views.h (libdw); it needs libpft of the same version.  Link with
 * `pkg-config --libs libpft` or `pkg-config --libs libpft-io`.
 *
 * Conventions (as libipt):
 *  - Functions return int: >= 0 is success, -PFT_ERR_* is failure.
 *  - Objects come from pft_X_alloc() and go to pft_X_free(); free(NULL)
 *    is a no-op.
 *  - Structs passed in or out start with, or are accompanied by, a size so
 *    that the library and its callers may differ in version.  Any size
 *    from the struct's first layout up is accepted; the library reads and
 *    writes only the bytes both sides know (an older caller's bytes past
 *    its struct are left alone; fields it lacks take their defaults, zero
 *    unless said otherwise).  The first layout ends at the struct's first
 *    `reserved` member (struct pft_insn: the whole struct, @raw included);
 *    a struct without one has a single layout.  A smaller size is
 *    -PFT_ERR_INVALID.  The init functions (pft_ptm_config_init(),
 *    pft_etm3_config_init(), pft_event_limits_max()) are inline: they pass
 *    the caller's sizeof to the library, which writes no more than that.
 *  - The library never prints, never exits and has no global mutable state.
 *  - Ownership: configuration is copied; input buffers are borrowed until
 *    the call that consumes them says so; outputs are caller-owned; pointers
 *    inside outputs stay valid until the next call on the same object.
 */
#ifndef PFT_H
#define PFT_H

/* libpft: decoding bytes. */
#include "pft/common.h"
#include "pft/frames.h"
#include "pft/packets.h"
#include "pft/image.h"
#include "pft/flow.h"
#include "pft/model.h"
#include "pft/config.h"
#include "pft/etm3.h"
#include "pft/decode.h"

/* libpft-io: ELF files, inputs, perf.data and views. */
#include "pft/elf.h"
#include "pft/input.h"
#include "pft/perf.h"
#include "pft/insnlog.h"
#include "pft/views.h"

#endif /* PFT_H */
