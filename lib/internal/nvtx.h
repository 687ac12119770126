/*
 * NVTX ranges around public operations (nvtx3, header-only, from the CUDA Toolkit), in the
 * "gcol" domain: profilers (Nsight Systems) then show gcol's ranges on a row of their own and
 * can filter them, apart from the application's ranges and other libraries'.
 * The Meson option nvtx=false defines GCOL_NVTX=0 and compiles them out.
 */
#ifndef GCOL_INTERNAL_NVTX_H
#define GCOL_INTERNAL_NVTX_H

#ifndef GCOL_NVTX
#define GCOL_NVTX 1
#endif

#if GCOL_NVTX
#ifdef __cplusplus
extern "C" {
#endif
/* Out of line (lib/nvtx.c), so only one file includes NVTX and creates the domain. */
void gcol_detail_nvtx_push(const char *name);
void gcol_detail_nvtx_pop(void);
#ifdef __cplusplus
}
#endif
#define GCOL_DETAIL_NVTX_PUSH(name) gcol_detail_nvtx_push(name)
#define GCOL_DETAIL_NVTX_POP() gcol_detail_nvtx_pop()
#else
#define GCOL_DETAIL_NVTX_PUSH(name) ((void)0)
#define GCOL_DETAIL_NVTX_POP() ((void)0)
#endif

#endif /* GCOL_INTERNAL_NVTX_H */
