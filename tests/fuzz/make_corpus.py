#!/usr/bin/env python3
"""Write the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/).

Seeds are small pieces of the real captures in ../shared/testdata (never a
whole file) and small hand-made inputs, each with the header bytes its
target expects (see the comment at the top of each fuzz_<target>.c).  The
output is deterministic; run it again after changing a target's input
layout:   python3 tests/fuzz/make_corpus.py [SHARED_DIR]
The ELF seeds need arm-linux-gnueabihf-gcc (they are skipped without it).
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
SHARED = sys.argv[1] if len(sys.argv) > 1 else os.path.join(SRC, '..', 'shared')
SNAP = os.path.join(SHARED, 'testdata', 'opencsd-snapshots')


def read(*path):
    with open(os.path.join(SNAP, *path), 'rb') as f:
        return f.read()


def deformat(buf, want_id):
    """The bytes of trace ID @want_id in a memory-mode CoreSight buffer
    (16-byte frames; an even byte with bit 0 set is an ID, whose auxiliary
    bit 1 means the next byte still belongs to the previous ID)."""
    out, cur = bytearray(), None
    for f in range(0, len(buf) - 15, 16):
        fr, aux = buf[f:f + 16], buf[f + 15]
        for i in range(8):
            b = fr[2 * i]
            nxt = fr[2 * i + 1] if i < 7 else None
            if b & 1:
                new = b >> 1
                if (aux >> i) & 1:      # next byte is still the old ID's
                    if nxt is not None and cur == want_id:
                        out.append(nxt)
                    cur = new
                else:
                    cur = new
                    if nxt is not None and cur == want_id:
                        out.append(nxt)
            else:
                if cur == want_id:
                    out.append((b & 0xfe) | ((aux >> i) & 1))
                if nxt is not None and cur == want_id:
                    out.append(nxt)
    return bytes(out)


class Corpus:
    def __init__(self):
        self.root = os.path.join(HERE, 'corpus')

    def target(self, name):
        d = os.path.join(self.root, name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        return d

    @staticmethod
    def put(d, name, data):
        with open(os.path.join(d, name), 'wb') as f:
            f.write(data)


# Configuration header bytes (see the fuzz targets).
PKT_TC2 = 0x01 | 0x08 | 0x20        # cycle-accurate, 64-bit ts, v1.1
PKT_A15 = 0x08 | 0x20               # 64-bit ts, v1.1
FLOW_TC2 = 0x01 | 0x20 | 0x40       # cycle-accurate, 64-bit ts, mirrored image
FLOW_A15 = 0x08 | 0x20 | 0x40       # return stack, 64-bit ts, mirrored image
ASYNC = bytes(5) + b'\x80'

# Hand-made streams (offsets of the interesting bits in comments).
HAND_STREAMS = {
    # A-sync, I-sync ARM 0x1000 periodic, atoms E, N, branch, waypoint update.
    'arm_basic': ASYNC + bytes([0x08, 0x00, 0x10, 0x00, 0x00, 0x00, 0x84, 0x86,
                                0x21, 0x72, 0x11]),
    # I-sync Thumb, ctxid 4 bytes would follow in a ctxid configuration.
    'thumb_isync': ASYNC + bytes([0x08, 0x01, 0x20, 0x00, 0x00, 0x20, 0x88, 0x84]),
    # Timestamp (full 64 bits), VMID, context ID (1 byte), trigger, ignore.
    'misc': ASYNC + bytes([0x42, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
                           0x3c, 0x05, 0x6e, 0x11, 0x0c, 0x66, 0x76]),
    # Errors: reserved header, then resync; truncated packet at the end.
    'errors': ASYNC + bytes([0x08, 0, 0x10, 0, 0, 0, 0x02, 0x84]) + ASYNC + bytes([0x08, 0]),
    # Long zero runs (padding) and A-syncs of different lengths.
    'zeros': bytes(20) + b'\x80' + bytes(15) + b'\x80' + bytes(5) + b'\x80' + bytes(30),
    # Branch with exception bytes (EX0 + EX1), Hyp.
    'exception': ASYNC + bytes([0x08, 0, 0x10, 0, 0, 0, 0xc1, 0xc0, 0x95, 0xa0]),
}


def stream_seeds(corpus, tc2, a15):
    d = corpus.target('pkt')
    for i, off in enumerate(range(0, len(tc2), 409)):
        corpus.put(d, 'tc2_%02d' % i, bytes([PKT_TC2, i]) + tc2[off:off + 300])
    corpus.put(d, 'a15_head', bytes([PKT_A15, 7]) + a15[:30])
    for cfg in range(0, 0x80, 0x15):
        for name, s in HAND_STREAMS.items():
            corpus.put(d, 'hand_%s_%02x' % (name, cfg), bytes([cfg, 3]) + s)
    vec = os.path.join(SRC, 'tests', 'opencsd', 'vectors')
    configs = {'ca_ctxid4.hex': 0x01 | 0x06 | 0x20, 'errors.hex': 0x20,
               'nonca_ctxid1.hex': 0x02 | 0x20}
    for name, cfg in configs.items():
        p = os.path.join(vec, name)
        if os.path.exists(p):
            with open(p) as f:
                text = ''.join(l.split('#')[0] for l in f)
            corpus.put(d, 'vector_' + name[:-4], bytes([cfg, 5]) + bytes.fromhex(text))


def flow_seeds(corpus, tc2, a15, kernel, a15_code):
    d = corpus.target('flow')
    # Pages of the kernel image where the TC2 trace spends its time, served
    # at their own addresses by the mirrored image (4096 bytes: byte 1 = 10).
    for i, page in enumerate((0xc0041000, 0xc0044000, 0xc003b000, 0xc004f000)):
        code = kernel[page - 0xc0008000:page - 0xc0008000 + 4096]
        off = [26566, 27719, 28881, 30021][i]
        corpus.put(d, 'tc2_%d' % i, bytes([FLOW_TC2, 10]) + code + tc2[off:off + 600])
    corpus.put(d, 'a15', bytes([FLOW_A15, 10]) + a15_code[:4096] + a15[:30])
    # Hand-made ARM code at 0x1000 (mirrored): mov r0,#0; bl +8; b -8;
    # ldr pc,[sp],#4 (return); bx lr; nop; isb; b .
    arm = bytes.fromhex('0000a0e3' '000000eb' 'fcffffea' '04f09de4'
                        '1eff2fe1' '00f020e3' '6ff07ff5' 'feffffea')
    code = (arm * 128)[:4096]
    for name, s in HAND_STREAMS.items():
        corpus.put(d, 'hand_' + name, bytes([0x48, 10]) + code + s)
        corpus.put(d, 'hand_noimg_' + name, bytes([0x88, 3]) + code[:32] + s)


def dfmt_seeds(corpus, cstrace):
    d = corpus.target('dfmt')
    for i, off in enumerate(range(0, len(cstrace), 2048)):
        corpus.put(d, 'etb_%02d' % i, bytes([0, i]) + cstrace[off:off + 512])
    corpus.put(d, 'etb_unaligned', bytes([0, 9]) + cstrace[1000:1000 + 333])
    fsync = b'\xff\xff\xff\x7f'
    frames = cstrace[4096:4096 + 256]
    tpiu = b'\x12\x34' + fsync + frames[:128] + fsync + frames[128:]
    corpus.put(d, 'tpiu', bytes([1, 3]) + tpiu)
    # HSYNCs (ff 7f) between the half-words of a frame.
    hs = bytearray(fsync)
    for k in range(0, 64, 2):
        hs += frames[k:k + 2]
        if k % 8 == 6:
            hs += b'\xff\x7f'
    corpus.put(d, 'tpiu_hsync', bytes([1, 1]) + bytes(hs))
    corpus.put(d, 'discontinuity', bytes([0, 2]) + frames[:32] + fsync * 4 + frames[32:64])
    corpus.put(d, 'tpiu_discontinuity', bytes([1, 2]) + fsync + frames[:32] + fsync * 4
               + fsync + frames[32:64])


# A PTM trace (return stack on) of views_image.s: main, its recursive
# calls of fn, the Thumb loop in tf, a timestamp, a periodic I-sync and a
# branch packet (made with pftc from that program and hand-written atoms).
VIEWS_STREAM = bytes.fromhex('0000000000800800800000219488b09490928442e8878080808080800008008000000190b1808280109c')


def pipe_seeds(corpus, cstrace, tc2, etm3):
    d = corpus.target('pipe')
    # Formatted: pieces of the TC2 buffer (PTM 0x13, ETMv3 0x10 there).
    for i, off in enumerate(range(0, len(cstrace), 4096)):
        corpus.put(d, 'tc2_formatted_%02d' % i, bytes([0x01 | 0x0c | 0x20, i]) + cstrace[off:off + 1024])
    corpus.put(d, 'tc2_formatted_packets', bytes([0x01 | 0x04 | 0x20, 3]) + cstrace[:512])
    corpus.put(d, 'tc2_formatted_swapped', bytes([0x01 | 0x0c | 0x10 | 0x20, 5]) + cstrace[:1024])
    # TPIU: frames behind an FSYNC, an HSYNC in between.
    fsync = b'\xff\xff\xff\x7f'
    corpus.put(d, 'tc2_tpiu', bytes([0x02 | 0x0c | 0x20, 1]) + fsync + cstrace[:64] + b'\xff\x7f'
               + cstrace[64:256])
    # Raw: one source's bytes, PTM and ETMv3.
    corpus.put(d, 'tc2_raw_ptm', bytes([0x0c | 0x20, 7]) + tc2[:600])
    corpus.put(d, 'tc2_raw_etm3', bytes([0x0c | 0x10 | 0x20, 7]) + etm3[:600])
    corpus.put(d, 'raw_ptm_views', bytes([0x08, 1]) + VIEWS_STREAM)
    for name, st in HAND_STREAMS.items():
        corpus.put(d, 'hand_' + name, bytes([0x0c, 2]) + st)


def views_seeds(corpus):
    d = corpus.target('views')
    headers = {
        'symbols': (0x02, 0x0f), 'lines': (0x42, 0x0f), 'depth1': (0x40, 0x0f),
        'depth2_cycles_clock': (0x46 | 0x10, 0x0f), 'timestamp_clock': (0x2e, 0x0f),
        'two_sources': (0xc2, 0x0f), 'writer_fails_64': (0x42, 0x00),
        'writer_fails_1k': (0x02, 0x04),
    }
    for name, (a, b) in headers.items():
        corpus.put(d, name, bytes([a, b]) + VIEWS_STREAM)
    corpus.put(d, 'errors', bytes([0x42, 0x0f]) + HAND_STREAMS['errors'])


SNAPSHOT_INI = b"""[snapshot]
version=1.0
[device_list]
device0=cpu.ini
device1=ptm.ini
[trace]
metadata=trace.ini
"""
TRACE_INI = b"""[trace_buffers]
buffers=buffer0, buffer1
[buffer0]
name=ETB_0
file=etb.bin
format=coresight
[buffer1]
name=RAW
file="raw.bin"
format=source_data
[source_buffers]
PTM_0=ETB_0
[core_trace_sources]
cpu_0=PTM_0
"""
CPU_INI = b"""[device]
name=cpu_0
class=core
type=Cortex-A15
[regs]
R15=0xC0008000
CPSR=0x1D3 ; a comment
[dump]
file=kernel.bin
address=0xC0008000
length=0x1000
[dump1]
file=vectors.bin
address=0x0
offset=16
space=S
"""
PTM_INI = b"""[device]
name=PTM_0
class=trace_source
type=PTM1.1
[regs]
ETMCR(0x000)=0x10001000
ETMIDR(0x079)=0x411CF312
ETMCCER(0x07A)=0x34C01AC2
ETMCCR(id:0x1)=0x8D294004
ETMTRACEIDR(0x080)=0x00000013
ETMTEEVR(id:0x8)=0x0000006F
ETMCNTENR2(id:0x55)=0x0002406F
ETMSQ12EVR(id:0x60)=0x0000406F
ETMAUXCR(id:0x7F)=0x00000000
"""


def snapshot_seeds(corpus):
    d = corpus.target('snapshot')

    def files(**kw):
        return b'\0'.join(name.encode() + b'\n' + body for name, body in kw.items())

    def named(pairs):
        return b'\0'.join(n.encode() + b'\n' + b for n, b in pairs)

    good = [('snapshot.ini', SNAPSHOT_INI), ('trace.ini', TRACE_INI),
            ('cpu.ini', CPU_INI), ('ptm.ini', PTM_INI)]
    corpus.put(d, 'good', named(good))
    corpus.put(d, 'crlf', named([(n, b.replace(b'\n', b'\r\n')) for n, b in good]))
    corpus.put(d, 'no_trace', named(good[:1] + good[2:]))
    corpus.put(d, 'bad_reg', named(good[:3] + [('ptm.ini', PTM_INI.replace(b'0x10001000', b'zz'))]))
    corpus.put(d, 'bad_section', named([('snapshot.ini', b'[snapshot\nversion=1.0\n')]))
    corpus.put(d, 'no_section', named([('snapshot.ini', b'version=1.0\n')]))
    corpus.put(d, 'version2', named([('snapshot.ini', SNAPSHOT_INI.replace(b'1.0', b'2.0'))]))
    corpus.put(d, 'long_line', named([('snapshot.ini', b'[snapshot]\nversion=' + b'1' * 5000 + b'\n')]))
    corpus.put(d, 'no_address', named(good[:2] + [('cpu.ini', CPU_INI.replace(b'address=0x0\n', b''))]
                                      + good[3:]))
    corpus.put(d, 'big_address', named(good[:2] + [('cpu.ini', CPU_INI.replace(b'0xC0008000\nlength',
                                                                                 b'0x1C0008000\nlength'))]
                                       + good[3:]))


def event_seeds(corpus):
    d = corpus.target('event')
    a15_limits = (0x8D294004).to_bytes(4, 'little') + (0x34C01AC2).to_bytes(4, 'little') \
        + (0x411CF312).to_bytes(4, 'little')
    exprs = ['always', 'never', 'addr_cmp1', '!arc2', 'addr_cmp1 & arc2', 'arc1 | !counter2',
             'not ctxid_cmp1 and ext_in2', '!(instr1 | watch3)', '(seq_state2)',
             'vmid_cmp || startstop', 'ext_in_sel4 && ns', '!prohibited & !arc8',
             'ARC3 Or Counter4', 'a & b', 'arc1 & arc2 & arc3', '((((arc1))))', ')', '(arc1',
             'arc9', 'addr_cmp17', 'arc1 &', '', '   ', 'arc1 $ arc2', '!!arc1']
    values = [0x6f, 0x406f, 0x2406f, 0x0d, 0x1ffff, 0x20000, 0x12345678, 0x10, 0x7f]
    for i, e in enumerate(exprs):
        v = values[i % len(values)]
        limits = a15_limits + b'\0' if i % 2 else bytes(12) + b'\1'
        corpus.put(d, 'expr_%02d' % i, v.to_bytes(4, 'little') + limits + e.encode())


ELF_SRC = r"""
    .syntax unified
    .text
    .global _start
    .arm
_start:
    mov r0, #0
    bl func
    blx thumb_func
    b _start
func:
    bx lr
    .thumb
    .type thumb_func, %function
thumb_func:
    movs r1, #1
    cbz r1, 1f
    nop
1:  bx lr
    .size thumb_func, .-thumb_func
    .data
    .word 0x12345678
"""


def elf_seeds(corpus):
    d = corpus.target('elf')
    cc = shutil.which('arm-linux-gnueabihf-gcc')
    if not cc:
        print('make_corpus: no arm-linux-gnueabihf-gcc, ELF seeds skipped', file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'a.S')
        with open(src, 'w') as f:
            f.write(ELF_SRC)
        variants = {
            'exec': ['-nostdlib', '-static', '-Wl,--build-id=none', '-Wl,-z,max-page-size=0x1000'],
            'exec_stripped': ['-nostdlib', '-static', '-s', '-Wl,--build-id=none',
                              '-Wl,-z,max-page-size=0x1000'],
            'shared': ['-nostdlib', '-shared', '-Wl,--build-id=none', '-Wl,-z,max-page-size=0x1000'],
        }
        # Assembled first and with relative names: no temporary file name
        # gets into the symbol table, so the seeds are the same every time.
        subprocess.run([cc, '-c', '-o', 'a.o', 'a.S'], check=True, cwd=tmp)
        for name, flags in variants.items():
            out = os.path.join(tmp, name)
            subprocess.run([cc, '-o', name, 'a.o'] + flags, check=True, cwd=tmp)
            with open(out, 'rb') as f:
                corpus.put(d, name, f.read())
    corpus.put(d, 'not_elf', b'\x7fELF\x01\x01\x01' + bytes(40))
    corpus.put(d, 'elf64', b'\x7fELF\x02\x01\x01' + bytes(60))


def model_seeds(corpus, kernel):
    d = corpus.target('model')
    rnd = random.Random(7)
    demo = os.path.join(SRC, 'examples', 'demo', 'mem_0.bin')
    codes = [('kernel', kernel[0x39000:0x39000 + 4096], 10)]
    if os.path.exists(demo):
        with open(demo, 'rb') as f:
            codes.append(('demo', (f.read() + bytes(1024))[:1024], 8))
    for i in range(8):
        codes.append(('random%d' % i, bytes(rnd.randrange(256) for _ in range(4096)), 10))
    for i, (name, code, size_byte) in enumerate(codes):
        cfg = rnd.randrange(256)
        hdr = bytes([cfg, rnd.randrange(256), rnd.randrange(4) | (0x80 if i % 4 == 3 else 0),
                     4, 40, size_byte])
        choices = bytes(rnd.randrange(256) for _ in range(600))
        corpus.put(d, 'walk_%s_%02x' % (name, cfg), hdr + code + choices)


def main():
    corpus = Corpus()
    cstrace = read('TC2', 'cstrace.bin')
    tc2 = deformat(cstrace, 0x13)
    a15 = read('trace_cov_a15', 'PTM_0_2.bin')
    kernel = read('TC2', 'kernel_dump.bin')
    a15_code = read('trace_cov_a15', 'mem_Cortex-A15_0_0_VECTORS.bin') + \
        read('trace_cov_a15', 'mem_Cortex-A15_0_1_RO_CODE.bin')
    stream_seeds(corpus, tc2, a15)
    flow_seeds(corpus, tc2, a15, kernel, a15_code)
    dfmt_seeds(corpus, cstrace)
    snapshot_seeds(corpus)
    event_seeds(corpus)
    elf_seeds(corpus)
    model_seeds(corpus, kernel)
    pipe_seeds(corpus, cstrace, tc2, deformat(cstrace, 0x10))
    views_seeds(corpus)


if __name__ == '__main__':
    main()
