/**
 * The estimators' param objects, made once per stage, and the checks that name the allowed values
 * in their errors.
 */
package io.corgipile.ml.param;
