// Shared definitions for include tests.
#ifndef TILES_H
#define TILES_H
#define BLOCK 64
#define RANGE(n) (0 ... (n))
#endif
