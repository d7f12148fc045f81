# frozen_string_literal: true

require_relative "test_helper"
require "etc"
require "timeout"

# What no rescue catches, arriving while a rule's Ruby callable runs inside
# a lookup: a throw (Timeout.timeout without a class throws to its block on
# Ruby 3.1 and 3.2; a callable's own `throw`) and Thread#kill. The C
# extension's trampolines stop it before it unwinds through the library,
# whose frames must return normally, and the lookup resumes it once the
# library has returned (ext/pathconfig/speedups.c, the rule trampolines).
# Through ffi alone it unwinds through the library's frames (the README
# says so), so this file runs with the extension, as `make test` runs it.
class RuleInterruptsTest < Minitest::Test
  def setup
    assert Pathconfig::SPEEDUPS, "runs with the C extension (make -C bindings/ruby speedups)"
    @calls = 0
    @slow = true
    @config = Pathconfig::PathConfiguration.from_json('{"rules": [{"patterns": [".*"], "properties": {"a": 1}}]}')
    @config.add_rule(patterns: ["^/throw"], configurer: lambda { |_request, _properties|
      @calls += 1
      throw :done, :thrown
    })
    @config.add_rule(patterns: ["^/slow"], predicate: lambda { |_request|
      sleep 0.01 while @slow
      true
    }, properties: { "slow" => true })
    @config.add_rule(patterns: ["^/nested"], predicate: ->(_request) { @config.properties("/throw/inner") })
  end

  def teardown
    @config&.close
  end

  # The library returned: it recorded the request's failure, which a jump
  # through its frames never lets it do.
  def assert_the_library_returned
    error = Pathconfig.last_error
    assert_kind_of Pathconfig::CallbackError, error
    assert_match(/stopped by a throw or Thread#kill/, error.message)
  end

  def test_a_throw_from_a_callable_reaches_its_catch_after_the_library_returns
    assert_equal :thrown, catch(:done) { @config.properties("/throw/1") }
    assert_the_library_returned
    assert_equal :thrown, catch(:done) { @config.properties("/throw/1") }
    assert_equal 2, @calls, "nothing was memoised: the configurer ran again"
    assert_equal :thrown, catch(:done) { @config.explain("/throw/2") }
    assert_the_library_returned
    assert_equal :thrown, catch(:done) { @config.properties("/nested/1") }, "through a lookup inside a callable"
    assert_equal({ "a" => 1 }, @config.properties("/other"))
  end

  def test_a_timeout_around_a_lookup_expires_in_the_callable
    3.times do |round|
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      assert_raises(Timeout::Error, "round #{round}") { Timeout.timeout(0.05) { @config.properties("/slow/1") } }
      assert_operator Process.clock_gettime(Process::CLOCK_MONOTONIC) - started, :<, 2
      assert_the_library_returned
    end
    @slow = false
    assert_equal({ "a" => 1, "slow" => true }, @config.properties("/slow/1"), "the same URL answers after")
  end

  def test_a_thread_killed_in_a_callable_dies_after_the_library_returns
    reached = Queue.new
    @config.add_rule(patterns: ["^/kill"], predicate: lambda { |_request|
      reached << true
      sleep 10
    })
    thread = Thread.new do
      @config.properties("/kill/1")
    ensure
      reached << Pathconfig.last_error&.message # the thread's own, as it unwinds in Ruby
    end
    reached.pop
    thread.kill
    assert_equal false, thread.join(5)&.status, "the thread ended, killed"
    assert_match(/stopped by a throw or Thread#kill/, reached.pop)
    @slow = false
    assert_equal({ "a" => 1, "slow" => true }, Thread.new { @config.properties("/slow/2") }.value)
  end

  # Unwound through the library, each expiry leaked what its frames held:
  # about 120 KiB at a 60 KB URL, 48 MB over these 400 (through ffi alone).
  def test_expiring_timeouts_leave_no_memory_behind
    url = "/slow/#{'x' * 60_000}"
    expire = lambda do |count|
      count.times do
        Timeout.timeout(0.001) { @config.properties(url) }
      rescue Timeout::Error
        nil
      end
      GC.start
    end
    expire.call(300) # the process's own growth first
    before = resident_kib
    expire.call(400)
    assert_operator resident_kib - before, :<, 16 * 1024, "KiB grown over 400 expiries"
  end

  def resident_kib
    File.read("/proc/self/statm").split[1].to_i * (Etc.sysconf(Etc::SC_PAGESIZE) / 1024)
  end
end
