/* pft_cores.h - the register values of the cores' trace units that the
 * protocols' register tables share (pft_cores.c holds the table). */
#ifndef PFT_CORES_H
#define PFT_CORES_H

/* The M-profile ETMs (ETM-M3 of the Cortex-M3 r2, DDI 0337I 10.3.7;
 * ETM-M4): ETMv3.5, the alternative branch encoding (ETMIDR[20]), 32-bit
 * Thumb instructions as one (ETMIDR[18]), no Security Extensions
 * (ETMIDR[19] = 0). */
#define PFT_CORE_M_ETMIDR 0x4114f250u
/* ETMCCER: the ETM-M4 implements timestamps (bit 22), 48-bit (bit 29 = 0),
 * natural binary (bit 28); the ETM-M3 none. */
#define PFT_CORE_M4_ETMCCER 0x18541800u
#define PFT_CORE_M3_ETMCCER 0x18141800u
/* ETMCCR: no effect on decoding; the value pft writes for every core. */
#define PFT_CORE_M_ETMCCR 0x8d294004u

#endif
