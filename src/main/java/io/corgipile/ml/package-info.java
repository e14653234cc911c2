/**
 * The public API of the estimators: {@link io.corgipile.ml.SGDClassifier}, {@link
 * io.corgipile.ml.SGDRegressor} and {@link io.corgipile.ml.ScheduledLasso}, their models, params,
 * summaries and exceptions. Saved models, Spark Connect's service files and the Python package name
 * these classes. Their implementation lives in the subpackages: {@code sgd} (one partition's SGD),
 * {@code sync} (the driver's epochs and rounds), {@code compress} (int8 deltas), {@code lasso},
 * {@code param} (param objects and their checks) and {@code common} (what both solvers share).
 */
package io.corgipile.ml;
