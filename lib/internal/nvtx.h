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

#ifdef __cplusplus
extern "C" {
#endif
/* The public function the user called on this thread (the outermost range; lib/status.c):
 * error messages name it instead of the internal helper that found the error. Kept with
 * the ranges compiled out too. */
void gcol_detail_api_enter(const char *name);
void gcol_detail_api_leave(void);
/* How many public functions this thread is inside (0: the caller's own code runs): the
 * spill manager pins what a running operation uses and makes until the outermost returns. */
int gcol_detail_api_depth(void);
/* The outermost public function of this thread's current call, or NULL outside one (a
 * worker thread of that call enters it too, so that its messages name it). */
const char *gcol_detail_api_name(void);
#if GCOL_NVTX
/* Out of line (lib/nvtx.c), so only one file includes NVTX and creates the domain. */
void gcol_detail_nvtx_push(const char *name);
void gcol_detail_nvtx_pop(void);
#endif
#ifdef __cplusplus
}
#endif

#if GCOL_NVTX
#define GCOL_DETAIL_NVTX_PUSH(name) (gcol_detail_api_enter(name), gcol_detail_nvtx_push(name))
#define GCOL_DETAIL_NVTX_POP() (gcol_detail_nvtx_pop(), gcol_detail_api_leave())
#else
#define GCOL_DETAIL_NVTX_PUSH(name) gcol_detail_api_enter(name)
#define GCOL_DETAIL_NVTX_POP() gcol_detail_api_leave()
#endif

#endif /* GCOL_INTERNAL_NVTX_H */
