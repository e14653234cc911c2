/**
 * {@link io.corgipile.ml.ScheduledLasso}'s solver: parallel coordinate descent in rounds scheduled
 * by priority and a dependency check, over each partition's rows held by column.
 */
package io.corgipile.ml.lasso;
