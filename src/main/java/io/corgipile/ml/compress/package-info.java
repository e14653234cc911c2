/**
 * A partition's model change sent as int8 (a minimum and a step per chunk of coordinates), and the
 * error feedback that adds what rounding lost to the next round's change.
 */
package io.corgipile.ml.compress;
