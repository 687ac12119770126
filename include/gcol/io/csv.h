/**
 * @file csv.h
 * @ingroup gcol_csv
 * @brief CSV text: a reader whose rows and fields are found on the GPU, and a writer that
 *        formats rows on the GPU.
 *
 * @code
 * gcol_csv_read_options opt;
 * gcol_csv_read_options_init(&opt);
 * opt.delimiter = ';';
 * const char *nulls[] = {"", "NA"};
 * opt.null_values = nulls;
 * opt.num_null_values = 2;
 * gcol_table *t = NULL;
 * gcol_csv_names *names = NULL;
 * gcol_csv_read_file("data.csv", &opt, &t, &names, stream, NULL);
 * printf("%s\n", names->names[0]);
 * gcol_csv_names_free(names);
 *
 * gcol_csv_write_options wopt;
 * gcol_csv_write_options_init(&wopt);
 * gcol_csv_write_file(gcol_table_get_view(t), &wopt, "copy.csv", stream);
 * @endcode
 *
 * The text: rows end at `\n`, `\r\n` or `\r` outside quotes; empty lines are skipped, and so are
 * lines that begin with the comment byte when one is set. Fields are split at the delimiter. A
 * field that begins with the quote byte is quoted: delimiters and newlines inside it are data,
 * two quotes inside it are one quote, and the closing quote is dropped (bytes after it stay in
 * the value, as in Arrow). A quote inside an unquoted field is a plain byte. When an escape byte
 * is set, it makes the byte after it plain data, inside quotes or not. A UTF-8 byte order mark
 * at the start is skipped.
 *
 * How rows are found: the input is copied to the device once; one thread per chunk (16 KiB)
 * records, for each of the 8 states a byte can be in (row start, field start, unquoted, quoted,
 * after an escape, ...), where the chunk ends and how many rows begin in it. The host composes
 * these small tables in file order, which fixes every chunk's true state (so a quoted newline is
 * never taken for a row end), and a second pass writes the row starts. One thread per row then
 * finds its fields, and each column is built as a STRING column of the values (quotes removed)
 * with nulls where a value equals a null value, then converted to its type.
 *
 * Types: given per column (::gcol_csv_read_options::column_types) or inferred: INT64 when every
 * non-null value parses as an integer, else FLOAT64 when every one parses as a float, else BOOL8
 * when every one is a true or false value, else STRING (a column whose every value is null is
 * STRING). Integers and floats parse as gcol_cast() parses strings; a value that does not parse
 * as the given type is null. BOOL8 values are the true and false values (others null).
 * TIMESTAMP_* values parse `YYYY-MM-DD[(T| )HH:MM[:SS[.fraction]]][Z]` (finer digits truncated).
 *
 * Bad input: a row with another number of fields than the first row (or the names), or a quote
 * left open at the end of the input, gives ::GCOL_ERROR_INVALID_ARGUMENT with a message naming
 * the row (0-based, counted after the header) and its byte offset; never a read outside the
 * input.
 */
#ifndef GCOL_IO_CSV_H
#define GCOL_IO_CSV_H

/** @addtogroup gcol_csv
 *  @{ */

#include <stdbool.h>
#include <stdint.h>

#include "gcol/config.h"
#include "gcol/memory.h"
#include "gcol/status.h"
#include "gcol/table.h"
#include "gcol/types.h"

GCOL_EXTERN_C_BEGIN

/** @brief How to read. Start from gcol_csv_read_options_init(). Strings are not copied: they
 *         must live as long as the call. */
typedef struct gcol_csv_read_options {
  /** Field separator (default ','). Not a newline, nor the quote, escape or comment byte. */
  char delimiter;
  /** Quote byte (default '"'), or 0 for none. */
  char quote;
  /** Escape byte (default 0: none): the byte after it is plain data. */
  char escape;
  /** Comment byte (default 0: none): a line that begins with it is skipped. */
  char comment;
  /** The first row (after @p skip_rows) holds the column names (default true). Only read when
   *  @p byte_range_offset is 0. */
  bool has_header;
  /** Column names (override the header's), or NULL: then the header's, or "c0", "c1", ... */
  const char *const *column_names;
  /** Entries of @p column_names (the number of columns when there is no header). */
  int32_t num_column_names;
  /** One type per column, or NULL to infer every type; an entry of ::GCOL_EMPTY infers that
   *  column. Taken: INT8..UINT64, FLOAT32, FLOAT64, BOOL8, TIMESTAMP_*, STRING. */
  const gcol_data_type *column_types;
  /** Entries of @p column_types (must equal the number of columns). */
  int32_t num_column_types;
  /** Values read as null (compared after quotes are removed), in every column; NULL for the
   *  default, the empty value only. */
  const char *const *null_values;
  /** Entries of @p null_values (0 with a non-NULL array: no null values). */
  int32_t num_null_values;
  /** Values read as true in BOOL8 columns; NULL for "true", "True", "TRUE". */
  const char *const *true_values;
  /** Entries of @p true_values. */
  int32_t num_true_values;
  /** Values read as false in BOOL8 columns; NULL for "false", "False", "FALSE". */
  const char *const *false_values;
  /** Entries of @p false_values. */
  int32_t num_false_values;
  /** Rows skipped before the header (or the data), counted as the reader counts rows (empty
   *  and comment lines are not rows). Only when @p byte_range_offset is 0. */
  int64_t skip_rows;
  /** Most data rows to read, or -1 (the default) for all. */
  int64_t max_rows;
  /** Start of the byte range: the rows read are those whose first byte lies in
   *  [byte_range_offset, byte_range_offset + byte_range_size); a row may end past the range.
   *  With an offset above 0 the reader takes the byte before the offset to lie outside quotes
   *  (a range must not start inside a quoted field holding a newline), reads no header and
   *  skips no rows: give the names and types (those the first range found). Ranges that tile
   *  a file read each row exactly once. */
  int64_t byte_range_offset;
  /** Bytes of the range, or 0 (the default) for the rest of the input. */
  int64_t byte_range_size;
} gcol_csv_read_options;

/** @brief Options of a comma-separated file with a header, double quotes, no escape or comment,
 *         the empty value as null, every row, inferred types. */
void gcol_csv_read_options_init(gcol_csv_read_options *options);

/** @brief The column names a read found (or was given). Free with gcol_csv_names_free(). */
typedef struct gcol_csv_names {
  int32_t num_names; /**< Entries of @p names. */
  char **names;      /**< NUL-terminated names (a name holding NUL bytes ends at the first). */
} gcol_csv_names;

/** @brief Frees names. NULL is a no-op. */
void gcol_csv_names_free(gcol_csv_names *names);

/**
 * @brief Reads CSV text held in host memory into a table on the GPU.
 * @param[in] data The text (read during the call only).
 * @param[in] size Its bytes.
 * @param[in] options How to read, or NULL for gcol_csv_read_options_init()'s.
 * @param[out] out The table, one column per field of a row; NULL on failure.
 * @param[out] names The column names, or NULL when not wanted; NULL on failure.
 * @param[in] stream Stream of the copies and kernels.
 * @param[in] mr Resource of the table's memory, or NULL for the default.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL arguments, bad options, names or types
 *         that disagree with the number of fields, no row to take the number of columns from,
 *         a ragged row or an unterminated quote: the message names the row),
 *         ::GCOL_ERROR_UNSUPPORTED (a column type the reader does not produce),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes @p stream (row counts, string sizes and null counts are read back).
 *       Skipped rows and the header are found on the host.
 */
gcol_status gcol_csv_read_buffer(const void *data, int64_t size,
                                 const gcol_csv_read_options *options, gcol_table **out,
                                 gcol_csv_names **names, gcol_stream stream, gcol_mr *mr);

/**
 * @brief As gcol_csv_read_buffer(), from the file at @p path, read whole first (with `pread`
 *        on up to 16 threads, into page-locked staging memory: include/gcol/io/staging.h).
 * @return As gcol_csv_read_buffer(); ::GCOL_ERROR_INVALID_ARGUMENT also when the file cannot be
 *         read (the message names it).
 */
gcol_status gcol_csv_read_file(const char *path, const gcol_csv_read_options *options,
                               gcol_table **out, gcol_csv_names **names, gcol_stream stream,
                               gcol_mr *mr);

/** @brief How to write. Start from gcol_csv_write_options_init(). */
typedef struct gcol_csv_write_options {
  /** Field separator (default ','). */
  char delimiter;
  /** Quote byte (default '"'), or 0 to write every value as it is. */
  char quote;
  /** Write a header row of @p column_names (default true). */
  bool header;
  /** One name per column, or NULL for "c0", "c1", ... (not copied). */
  const char *const *column_names;
  /** Text of a null (default ""; empty strings are then written quoted, `""`, to differ). */
  const char *null_value;
  /** Text of a true BOOL8 (default "true"). */
  const char *true_value;
  /** Text of a false BOOL8 (default "false"). */
  const char *false_value;
  /** Row terminator: "\n" (the default) or "\r\n". */
  const char *line_terminator;
} gcol_csv_write_options;

/** @brief Options that write a header, commas, double quotes where needed, nulls as empty
 *         fields and "\n" line ends. */
void gcol_csv_write_options_init(gcol_csv_write_options *options);

/**
 * @brief Writes a table as CSV text in host memory.
 *
 * Values: STRING as they are; integers exactly and floats as gcol_cast() formats them (`%.17g`,
 * `%.9g`: they read back equal); BOOL8 as the true and false values; TIMESTAMP_DAYS as
 * `YYYY-MM-DD`, other timestamps as `YYYY-MM-DD HH:MM:SS` with 3, 6 or 9 fraction digits for
 * milliseconds, microseconds and nanoseconds. A value is quoted (its quotes doubled) when it is
 * empty or holds the delimiter, the quote or a newline. Rows are formatted on the GPU (a thread
 * per row) and copied to the host.
 *
 * @param[in] table The columns (all of one size).
 * @param[in] options How to write, or NULL for the defaults.
 * @param[out] data The text (free with gcol_csv_buffer_free()); NULL on failure.
 * @param[out] size Its bytes.
 * @param[in] stream Stream of the kernels and copies.
 * @return ::GCOL_OK, ::GCOL_ERROR_INVALID_ARGUMENT (NULL arguments, bad options),
 *         ::GCOL_ERROR_SIZE_MISMATCH, ::GCOL_ERROR_UNSUPPORTED (another column type),
 *         ::GCOL_ERROR_OUT_OF_MEMORY, CUDA status.
 * @note Synchronizes @p stream.
 */
gcol_status gcol_csv_write_buffer(gcol_table_view table, const gcol_csv_write_options *options,
                                  void **data, int64_t *size, gcol_stream stream);

/** @brief Frees a buffer of gcol_csv_write_buffer(). NULL is a no-op. */
void gcol_csv_buffer_free(void *data);

/**
 * @brief As gcol_csv_write_buffer(), into the file at @p path (created or truncated).
 * @return As gcol_csv_write_buffer(); ::GCOL_ERROR_INVALID_ARGUMENT also when the file cannot be
 *         written (the message names it).
 */
gcol_status gcol_csv_write_file(gcol_table_view table, const gcol_csv_write_options *options,
                                const char *path, gcol_stream stream);

GCOL_EXTERN_C_END

/** @} */

#endif /* GCOL_IO_CSV_H */
