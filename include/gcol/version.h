/**
 * @file version.h
 * @ingroup gcol_core
 * @brief gcol's version: macros for the headers a program is compiled against, and
 *        gcol_version() for the library it is linked with.
 *
 * Versions follow semantic versioning (MAJOR.MINOR.PATCH). The macros are the same as the
 * Meson project version (`meson.build` refuses to configure when they differ).
 *
 * @code
 * #if GCOL_VERSION_MAJOR == 0 && GCOL_VERSION_MINOR < 2
 * // code for gcol 0.1
 * #endif
 * if (strcmp(gcol_version(), GCOL_VERSION_STRING) != 0)
 *   fprintf(stderr, "gcol headers %s, library %s\n", GCOL_VERSION_STRING, gcol_version());
 * @endcode
 */
#ifndef GCOL_VERSION_H
#define GCOL_VERSION_H

/** @addtogroup gcol_core
 *  @{ */

/** @brief Major version of gcol: changes break the API or ABI. */
#define GCOL_VERSION_MAJOR 0
/** @brief Minor version of gcol: additions. */
#define GCOL_VERSION_MINOR 1
/** @brief Patch version of gcol: fixes. */
#define GCOL_VERSION_PATCH 0

/** @cond GCOL_DETAIL */
#define GCOL_DETAIL_STRINGIFY(x) #x
#define GCOL_DETAIL_VERSION_STR(major, minor, patch) \
  GCOL_DETAIL_STRINGIFY(major) "." GCOL_DETAIL_STRINGIFY(minor) "." GCOL_DETAIL_STRINGIFY(patch)
/** @endcond */

/** @brief The version of these headers as a string literal, e.g. `"0.1.0"`. */
#define GCOL_VERSION_STRING \
  GCOL_DETAIL_VERSION_STR(GCOL_VERSION_MAJOR, GCOL_VERSION_MINOR, GCOL_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief The version of the gcol library linked into the program, e.g. `"0.1.0"`.
 *
 * It equals ::GCOL_VERSION_STRING when the program was compiled against the headers of the
 * same release; comparing the two finds a program built with one release's headers and
 * linked with another's library.
 * @return A static string "MAJOR.MINOR.PATCH"; never NULL.
 * @note Needs no GPU and no initialization; safe from any thread.
 */
const char *gcol_version(void);

#ifdef __cplusplus
}
#endif

/** @} */

#endif /* GCOL_VERSION_H */
