/**
 * What both solvers share: a fit's Spark jobs (tags, descriptions, data errors), a fitted linear
 * model's data and its saved form, and moments of rows merged by Chan et al.'s formula.
 */
package io.corgipile.ml.common;
