/**
 * Command-line and option-value parsing shared by the {@code spark-submit} CLI and the benchmarks:
 * {@link io.corgipile.options.CommandLine} (options, flags, positional arguments, help), {@link
 * io.corgipile.options.Integers} (integers within bounds, also for the reader's options), {@link
 * io.corgipile.options.EnumChoice} (the option text of enum constants) and {@link
 * io.corgipile.options.Counts} (row counts such as {@code 500k}). JDK only.
 */
package io.corgipile.options;
