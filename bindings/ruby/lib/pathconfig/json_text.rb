# frozen_string_literal: true

require "json"

module Pathconfig
  # JSON between Ruby and the library, read and written with no nesting
  # limit of Ruby's: Ruby's json refuses past 100 levels by default, where
  # the library's documents, answers and rules from code nest up to its own
  # limit (256 levels), which it checks with a message saying where. What
  # the library gives never nests deeper; a Ruby value written deeper is
  # refused by the library (a cyclic one raises SystemStackError here).
  module JSONText
    module_function

    def parse(text, freeze: false)
      JSON.parse(text, max_nesting: false, freeze: freeze)
    end

    def generate(value, **options)
      JSON.generate(value, max_nesting: false, **options)
    end
  end
end
