# frozen_string_literal: true

require_relative "test_helper"
require "json"

# A signal whose handler raises (Ctrl-C's Interrupt, a trap's exception)
# while the garbage collector gives the library its references back, as
# configurations and answers go. Ruby runs finalizers and pending signal
# handlers at the same interrupt check, and swallows what a finalizer
# raises: with a define_finalizer proc for each, about half the signals
# sent while they were dropped were lost there. The C extension gives them
# back in C (ext/pathconfig/speedups.c, Owned), where no handler runs.
# Through ffi alone they are still finalizers (the README says so), so this
# file runs with the extension, as `make test` runs it.
class ReleaseInterruptsTest < Minitest::Test
  class Alarm < StandardError; end

  SLOW = { "patterns" => (0...400).map { |i| "^/k7/p#{i}/(a|b)+c$" }, "properties" => { "n" => 0 } }.freeze
  ANSWERS = (0...8).map { |k| { "patterns" => ["^/k#{k}(/|$)"], "properties" => { "k" => k } } }.freeze
  LONG_URL = "/k7/x/#{'ab' * 200}" # the search takes most of the lookup; the answer is k7's

  def setup
    assert Pathconfig::SPEEDUPS, "runs with the C extension (make -C bindings/ruby speedups)"
    @plain = Pathconfig::PathConfiguration.from_json({ "rules" => [SLOW] + ANSWERS }.to_json, result_cache_size: 0)
  end

  def teardown
    @plain&.close
  end

  # Made here, not where a configuration is a local variable: a lambda
  # keeps its whole binding, so one made beside `config` would keep it
  # alive for as long as the library holds the lambda, that is, for good.
  YES = ->(_request) { true }

  def with_ruby_rules
    config = Pathconfig::PathConfiguration.from_json('{"rules": [{"patterns": [".*"], "properties": {"v": 1}}]}')
    config.add_rule(patterns: ["^/"], predicate: YES, properties: { "p" => 1 })
    config
  end

  # A SIGUSR2 every millisecond while armed, from another thread; its trap
  # raises Alarm in this one and disarms until the loop has caught it.
  def test_signals_as_answers_and_configurations_go_reach_the_loop
    state = { armed: false, raised: 0, caught: 0 }
    old = trap_raising_when_armed("USR2", state, Alarm)
    # What earlier tests dropped goes first: a Loader still has Ruby
    # finalizers (the gem's proc, and the lambda ObjectSpace::WeakMap gives
    # the WeakRef its state reads it through), and one run while armed
    # swallows the Alarm (the README says so). This test is about what it
    # drops itself. Twice: a state the reaper thread closes goes the second time.
    2.times do
      GC.start
      @plain.properties("/k0") # a method call: the collector's finalization runs
      sleep 0.05
    end
    sender = Thread.new do
      loop do
        Process.kill(:USR2, Process.pid)
        sleep 0.001
      end
    end
    held = Pathconfig::Callbacks.size
    dropped = 0
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 2.5
    while Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
      begin
        while Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
          state[:armed] = true
          kept = (0...8).map { |k| @plain.properties("/k#{k}") }
          assert_same kept.last, @plain.properties(LONG_URL)
          kept = nil # rubocop:disable Lint/UselessAssignment
          with_ruby_rules.properties("/x")
          dropped += 1
          GC.start if (dropped % 50).zero? # the finalization that follows runs where a signal may be due
        end
      rescue Alarm
        state[:caught] += 1
      end
    end
    state[:armed] = false
    sender.kill.join
    Signal.trap("USR2", old)
    assert_operator state[:raised], :>=, 10, state.inspect
    assert_equal state[:raised], state[:caught], "every Alarm reached the loop: #{state.inspect}"
    GC.start
    @plain.properties("/k0") # a method call: the collector's finalization runs
    assert_operator Pathconfig::Callbacks.size - held, :<, dropped / 10, "the configurations' predicates were let go"
  end
end
