# frozen_string_literal: true

# The Makefile of the gem's optional C extension, pathconfig/speedups
# (speedups.c says what it does). `gem install` runs this, then make; the
# gem's Makefile runs it to build the extension in place for the tests
# (`make -C bindings/ruby speedups`).
#
# Optional: where Ruby's headers (Debian: ruby-dev) or a C compiler are
# missing, it says so and writes a Makefile that builds nothing, so that the
# gem still installs and calls the library through ffi alone.
#
# The extension does not link libpathconfig: it receives the functions'
# addresses from the library ffi loaded.

def without_extension(why)
  warn "pathconfig: the C extension pathconfig/speedups is not built (#{why}); the gem calls the library through ffi alone"
  File.write("Makefile", "all install clean distclean:\n\t@true\n")
  exit 0
end

begin
  require "mkmf"
rescue SystemExit, LoadError => e # mkmf aborts when Ruby's headers are missing
  without_extension("mkmf: #{e.message.lines.first.strip}")
end

compiles = begin
  try_compile("int main(void) { return 0; }")
rescue RuntimeError # mkmf raises when the compiler cannot be run at all
  false
end
without_extension("no working C compiler") unless compiles

# -Wno-unused-parameter: Ruby's own headers trip it. The gem's Makefile adds
# -Werror.
$CFLAGS << " -std=c99 -Wall -Wextra -Wno-unused-parameter"
$CFLAGS << " -Werror" if ENV["PATHCONFIG_WERROR"] == "1"
create_makefile("pathconfig/speedups")
