package io.corgipile.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IntegersTest {
  @Test
  void parsesIntegersWithinTheirBoundsIgnoringBlanks() {
    assertThat(Integers.parse(" 7 ", 1, 10)).isEqualTo(7);
    assertThat(Integers.parse("-9223372036854775808", Long.MIN_VALUE, Long.MAX_VALUE))
        .isEqualTo(Long.MIN_VALUE);
    assertThat(Integers.parse("0", 0, Integer.MAX_VALUE)).isZero();
  }

  @Test
  void saysWhatIsAllowedWhenAValueIsOutOfBoundsOrNoInteger() {
    assertThatThrownBy(() -> Integers.parse("0", 1, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected an integer >= 1 and <= 10");
    assertThatThrownBy(() -> Integers.parse("2147483648", 0, Integer.MAX_VALUE))
        .hasMessage("expected an integer >= 0 and <= 2147483647");
    assertThatThrownBy(() -> Integers.parse("1.5", Long.MIN_VALUE, Long.MAX_VALUE))
        .hasMessage("expected a 64-bit integer");
    assertThatThrownBy(() -> Integers.parse("-1", 0, Long.MAX_VALUE))
        .hasMessage("expected an integer >= 0");
    assertThatThrownBy(() -> Integers.parse("11", Long.MIN_VALUE, 10))
        .hasMessage("expected an integer <= 10");
  }
}
