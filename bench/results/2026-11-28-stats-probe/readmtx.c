/* The host-pricing folder's Matrix Market reader, compiled as C for probe.cu. */
#include "../2026-11-28-host-pricing/readmtx.h"
int probe_read_mtx(const char *path, aijt_csr *A) { return read_mtx(path, A); }
