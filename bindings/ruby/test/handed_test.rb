# frozen_string_literal: true

require_relative "test_helper"
require "json"

# What the library hands over is owned from the instant its call returns.
# Ruby runs a pending signal handler (Ctrl-C's Interrupt, a trap that
# raises) as a method implemented in C returns, ffi's attached functions
# among them: a configuration returned as an Integer was lost to a handler
# that raised there (20 loads of bench/corpora/rules-10000.json interrupted
# so kept 172 MiB of the heap), and so was a new answer's result, handed to
# Properties.adopt as an Integer while its JSON was parsed. With the C
# extension, ffi converts each such result in C (speedups.c, "Owned from the
# return") and the extension's lookup owns a result before adopt runs.
# Through ffi alone the address is still an Integer (the README says so), so
# this file runs with the extension, as `make test` runs it.
class HandedTest < Minitest::Test
  class Alarm < StandardError; end

  DOC = '{"rules": [{"patterns": [".*"], "properties": {"a": 1}}]}'

  # The heap's bytes in use (glibc's mallinfo2: what the library holds,
  # which RSS does not show once glibc keeps freed pages).
  module Heap
    extend FFI::Library
    ffi_lib FFI::Library::LIBC

    # struct mallinfo2: ten size_t.
    class Info < FFI::Struct
      layout(*%i[arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost].flat_map { |f| [f, :size_t] })
    end
    attach_function :mallinfo2, [], Info.by_value

    def self.in_use
      info = mallinfo2
      info[:uordblks] + info[:hblkhd]
    end
  end

  def setup
    assert Pathconfig::SPEEDUPS, "runs with the C extension (make -C bindings/ruby speedups)"
  end

  def test_what_is_handed_over_is_converted_in_c
    native = Pathconfig::Native
    [native::NewConfiguration, native::NewResult, native::NewText].each do |converter|
      assert_nil converter.method(:from_native).source_location, "#{converter}: a C method"
    end
    handed = native.pathconfig_load_json(DOC, DOC.bytesize, nil, nil)
    assert_instance_of Pathconfig::Speedups::Owned, handed
    address = handed.address
    refute_equal 0, address
    assert_equal "/x", native.pathconfig_matched_string(address, "/x", nil), "the text itself, freed"
    assert_nil native.pathconfig_load_json("{", 1, nil, nil), "NULL is nil"
    assert_equal address, handed.take
    assert_equal 0, handed.address
    native.pathconfig_release(address)
  end

  # Records the class of what Properties.adopt is handed, while seen is set.
  module AdoptRecorder
    class << self
      attr_accessor :seen
    end

    def adopt(handed, answer_id)
      AdoptRecorder.seen&.push(handed.class)
      super
    end
  end
  Pathconfig::Properties.singleton_class.prepend(AdoptRecorder)

  def test_a_new_answer_is_owned_before_adopt_runs
    config = Pathconfig::PathConfiguration.from_json(DOC, result_cache_size: 0)
    AdoptRecorder.seen = []
    begin
      assert_equal({ "a" => 1 }, config.properties("/a/never/asked/#{rand(1 << 30)}").to_h)
      seen = AdoptRecorder.seen
    ensure
      AdoptRecorder.seen = nil
      config.close
    end
    assert_equal [Pathconfig::Speedups::Owned], seen.uniq
  end

  # Loads of a 0.9 MB document, each with SIGALRM sent a quarter of a load's
  # time in (by a child, which Ruby has no setitimer for), whose trap raises
  # once per load; the heap in use is the same after 20 such loads as before.
  # ("memory" in its name: make test-sanitize leaves it out, as the
  # sanitizers' allocators are not glibc's.)
  def test_memory_of_loads_interrupted_by_a_trap_is_freed
    big = { "rules" => (0...10_000).map { |i| { "patterns" => ["/p#{i}/[a-z]+$", "^/q#{i}"], "properties" => { "n" => i } } } }.to_json
    took = (0...3).map do
      start = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      Pathconfig::PathConfiguration.from_json(big).close
      Process.clock_gettime(Process::CLOCK_MONOTONIC) - start
    end.min
    state = { armed: false, raised: 0 }
    old = trap_raising_when_armed("ALRM", state, Alarm)
    interrupted = lambda do |n|
      state[:raised] = 0
      (3 * n).times do
        break if state[:raised] == n

        config = pid = nil
        begin
          state[:armed] = true
          pid = Process.spawn("sh", "-c", "sleep #{took / 4}; kill -ALRM #{Process.pid}")
          config = Pathconfig::PathConfiguration.from_json(big)
          state[:armed] = false
        rescue Alarm
          nil
        ensure
          state[:armed] = false
          Process.wait(pid) if pid
        end
        config&.close
      end
      state[:raised]
    end
    interrupted.call(2)
    GC.start
    before = Heap.in_use
    raised = interrupted.call(20)
    GC.start
    after = Heap.in_use
    assert_equal 20, raised, "the alarm was due during the load"
    assert_operator after - before, :<, 16 << 20, "the heap grew by #{(after - before) >> 20} MiB"
  ensure
    Signal.trap("ALRM", old || "DEFAULT")
  end
end
