# frozen_string_literal: true

module Pathconfig
  # The gem's version, which is the library's release it was written for
  # (the library's own is Pathconfig.library_version).
  VERSION = "1.1.0"
end
