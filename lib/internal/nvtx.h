/*
 * NVTX ranges around public operations (nvtx3, header-only, from the CUDA Toolkit).
 * The Meson option nvtx=false defines GCOL_NVTX=0 and compiles them out.
 */
#ifndef GCOL_INTERNAL_NVTX_H
#define GCOL_INTERNAL_NVTX_H

#ifndef GCOL_NVTX
#define GCOL_NVTX 1
#endif

#if GCOL_NVTX
#include <nvtx3/nvToolsExt.h>
#define GCOL_DETAIL_NVTX_PUSH(name) nvtxRangePushA(name)
#define GCOL_DETAIL_NVTX_POP() nvtxRangePop()
#else
#define GCOL_DETAIL_NVTX_PUSH(name) ((void)0)
#define GCOL_DETAIL_NVTX_POP() ((void)0)
#endif

#endif /* GCOL_INTERNAL_NVTX_H */
