/**
 * One partition's SGD: the update rules (plain and adagrad, with L1 by cumulative penalty), losses,
 * step schedules and the step calibration, training rows read in place, feature scaling, and a
 * partition's round from a starting model to its result. Knows nothing of the driver's rounds.
 */
package io.corgipile.ml.sgd;
