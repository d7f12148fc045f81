# frozen_string_literal: true

require_relative "test_helper"
require_relative "support/servers"
require "minitest/mock"
require "open3"
require "timeout"

# The loader: sources, events, and its safety with ffi, which runs a callback
# that arrives on a foreign native thread (the library's polling thread) on a
# Ruby thread of its own.
#
# Each scenario that could hang runs in a child process, all of them at once
# (so a hang costs SCENARIO_TIMEOUT once, not once per test); a child still
# running after SCENARIO_TIMEOUT seconds is killed and its test FAILS with
# "hung" (a hung loader can hang every thread of its process, even against
# SIGTERM, so no in-process timeout would do).
#
# "gem_*" scenarios use the gem's API, whose design keeps user code out of
# the library's callback (events are queued and delivered on the loader's own
# thread). "raw_*" scenarios call the C API through ffi directly, with the
# callback on ffi's thread, as a host without that design would: they hold
# the library to its header's promise ("never deadlocks, from any thread")
# and are the Ruby tests of issue 39, item 1.
class LoaderTest < Minitest::Test
  SCENARIO_TIMEOUT = Integer(ENV.fetch("PATHCONFIG_SCENARIO_TIMEOUT", "10"))
  LIB = File.expand_path("../lib", __dir__)
  SUPPORT = File.join(__dir__, "support", "servers.rb")

  PRELUDE = <<~RUBY
    $LOAD_PATH.unshift #{LIB.inspect}
    require "pathconfig"
    require #{SUPPORT.inspect}
    require "tmpdir"
    require "fileutils"
    $stdout.sync = true
    ROOT_DIR = Dir.mktmpdir
    at_exit { FileUtils.rm_rf(ROOT_DIR) } # after SERVER.stop, registered below
    File.write(File.join(ROOT_DIR, "c.json"), File.read(#{EXAMPLE.inspect}))
    SERVER = FileServer.new(ROOT_DIR)
    URL = SERVER.url("c.json")
    MAIN = Thread.current
    def wait_for(what, seconds = 5)
      deadline = Time.now + seconds
      sleep 0.01 until yield || Time.now > deadline
      raise "timed out waiting for \#{what}" unless yield
    end
    # Raw: a polling loader through the C API, with `callback` (an FFI::Function).
    def raw_loader(interval_ms = 30)
      err = Pathconfig::Native::ErrorStruct.new
      ptr = Pathconfig::Native.pathconfig_loader_new(JSON.generate([{ server: URL }]),
                                                   JSON.generate(refresh_interval_ms: interval_ms), err)
      raise Pathconfig.error_from(err) if ptr.null?
      ptr
    end
    at_exit { SERVER.stop }
  RUBY

  SCENARIOS = {
    # close (free) from inside an on_change block, while the polling thread delivers
    "gem_close_from_inside_the_block" => <<~RUBY,
      closed = Queue.new
      loader = Pathconfig::Loader.new([Pathconfig::ServerSource.new(URL)], refresh_interval: 0.03)
      loader.on_change = lambda do |event|
        next if event.applied? # the first load's
        loader.close
        closed << Thread.current.name
      end
      loader.load
      puts "closed on #{'#{closed.pop}'}"
      before = SERVER.count
      sleep 0.2
      raise "still polling after close" if SERVER.count > before + 1
      puts "ok"
    RUBY
    # load and refresh from inside an on_change block: MisuseError, nothing run
    "gem_load_from_inside_the_block" => <<~RUBY,
      outcome = Queue.new
      loader = Pathconfig::Loader.new([Pathconfig::ServerSource.new(URL)], refresh_interval: 0.03)
      loader.on_change = lambda do |event|
        next unless event.not_modified?
        begin
          loader.load
          outcome << "load returned"
        rescue Pathconfig::MisuseError => e
          begin
            loader.refresh
            outcome << "refresh returned"
          rescue Pathconfig::MisuseError => e2
            outcome << [e.code, e2.code, e.name]
          end
        end
      end
      loader.load
      p outcome.pop
      loader.close
      puts "ok"
    RUBY
    # close while the polling thread is delivering: the running block has
    # returned when close returns, and no block runs after
    "gem_close_while_delivering" => <<~RUBY,
      running = Queue.new
      calls = 0
      finished = false
      loader = Pathconfig::Loader.new([Pathconfig::ServerSource.new(URL)], refresh_interval: 0.02)
      loader.on_change = lambda do |event|
        calls += 1
        running << true
        sleep 0.3
        finished = true
      end
      loader.load
      running.pop
      loader.close
      raise "close returned while the block ran" unless finished
      after = calls
      sleep 0.2
      raise "a block ran after close" unless calls == after
      puts "ok"
    RUBY
    # a polling loader nobody references is garbage-collected: freed (by the
    # gem's reaper thread), polling stops
    "gem_gc_finalizes_a_polling_loader" => <<~RUBY,
      events = Queue.new
      # The block must not see the loader (a closure that does keeps it alive).
      def handler(events)
        ->(event) { events << event.kind }
      end
      def start(events)
        loader = Pathconfig::Loader.new([Pathconfig::ServerSource.new(URL)], refresh_interval: 0.02)
        loader.on_change = handler(events)
        loader.load
        nil
      end
      start(events)
      events.pop
      3.times { GC.start; sleep 0.05 }
      wait_for("polling to stop") do
        a = SERVER.count
        sleep 0.15
        SERVER.count == a
      end
      raise "the loader was not freed" unless Pathconfig::Loader::OPEN.empty?
      puts "ok"
    RUBY
    # a Puma or Unicorn worker (README, "A loader belongs to the process that
    # made it"): the master polls with an on_change block (so ffi's callback
    # thread ran there), collected a loader (so did the gem's reaper) and
    # forks. fork copies only the forking thread. In the worker: the
    # master's loader refuses load (E_FORKED) but its configuration answers
    # from four threads as in the master; a loader made there delivers its
    # polling events to on_change; one dropped there is freed, and stops
    # polling (the master's reaper, dead there, once kept it for good).
    "gem_a_preforked_worker" => <<~RUBY,
      def start(url, interval, events = nil)
        loader = Pathconfig::Loader.new([Pathconfig::ServerSource.new(url)], refresh_interval: interval)
        loader.on_change = ->(event) { events << event.kind } if events
        loader.load
        loader
      end
      def polled(events)
        Timeout.timeout(5) { nil until events.pop == :not_modified }
      end
      def collected
        3.times { GC.start; sleep 0.05 }
        wait_for("the loader to be freed") { GC.start; Pathconfig::Loader::OPEN.size == 1 }
      end
      master_events = Queue.new
      master = start(URL, 0.02, master_events)
      polled(master_events)
      start(URL, nil) && nil
      collected
      paths = (0...500).map { |i| ["/new", "/a/\#{i}/edit", "/numbers/\#{i}"][i % 3] }
      expected = paths.map { |path| master.current.properties(path).to_h }
      pid = fork do
        begin
          master.load
          raise "the master's loader loaded in the worker"
        rescue Pathconfig::MisuseError => e
          raise unless e.code == Pathconfig::ErrorCode::E_FORKED
        end
        config = master.current
        answers = Array.new(4) { Thread.new { paths.map { |path| config.properties(path).to_h } } }.map(&:value)
        raise "answers differ in the worker" unless answers.all?(expected)
        server = FileServer.new(ROOT_DIR) # the worker's own: the master's loader polls the other
        events = Queue.new
        start(server.url("c.json"), 0.02, events) && nil
        polled(events)
        collected
        wait_for("polling to stop") do
          a = server.count
          sleep 0.15
          server.count == a
        end
        puts "ok"
      rescue Exception => e
        puts "worker: \#{e.class}: \#{e.message}"
      ensure
        server&.stop
        $stdout.flush
        exit!(0) # not the master's at_exit (it stops the master's server)
      end
      Process.wait(pid)
    RUBY
    # loaders collected whatever their blocks did: one whose block reads its
    # loader, one whose handler, set while the load's event is delivered,
    # never touches it. A thread that stayed waiting for events after
    # delivering them could keep its loader on its stack (Ruby scans stacks
    # conservatively): the second kind all stayed so (1,993 of 2,000).
    "gem_gc_frees_loaders_whatever_their_blocks_did" => <<~RUBY,
      doc = File.read(File.join(ROOT_DIR, "c.json"))
      HANDLER = ->(_event) {}
      def reading(doc)
        loader = Pathconfig::Loader.new([Pathconfig::DataSource.new(doc, "d")]) { |_e| loader.current }
        loader.load
        nil
      end
      def swapping(doc)
        loader = Pathconfig::Loader.new([Pathconfig::DataSource.new(doc, "d")], on_change: HANDLER)
        loader.load
        loader.on_change = HANDLER
        nil
      end
      200.times { reading(doc) }
      200.times { swapping(doc) }
      wait_for("every loader to be freed") { GC.start; Pathconfig::Loader::OPEN.empty? }
      wait_for("the delivery threads to end") { Thread.list.none? { |t| t.name == "pathconfig loader events" } }
      puts "ok"
    RUBY
    # the loader holds its block, and the gem's state reads it through a weak
    # reference: a block that refers to its loader (and any block made where
    # the loader is a local, since it keeps every local) does not keep the
    # loader alive. It is freed, and polling stops.
    "gem_gc_finalizes_a_loader_whose_block_refers_to_it" => <<~RUBY,
      events = Queue.new
      def start(events)
        loader = Pathconfig::Loader.new([Pathconfig::ServerSource.new(URL)], refresh_interval: 0.02) do |event|
          events << [event.kind, loader.current.nil?]
        end
        loader.load
        nil
      end
      start(events)
      first = events.pop
      raise "first event \#{first.inspect}, not :applied with a current configuration" unless first == [:applied, false]
      events.pop # polling delivers to the block
      wait_for("the loader to be freed") { GC.start; Pathconfig::Loader::OPEN.empty? }
      wait_for("polling to stop") do
        a = SERVER.count
        sleep 0.15
        SERVER.count == a
      end
      puts "ok"
    RUBY
    # exit with a polling loader open (at_exit closes it while Ruby still runs callbacks)
    "gem_exit_with_a_polling_loader_open" => <<~RUBY,
      seen = Queue.new
      $loader = Pathconfig::Loader.new([Pathconfig::ServerSource.new(URL)], refresh_interval: 0.01)
      $loader.on_change = ->(event) { seen << event }
      $loader.load
      3.times { seen.pop }
      puts "ok"
    RUBY
    # exit while the library's callback runs on the polling thread: free
    # returns at once, so exit must wait until the library releases the
    # callback (after the call ends), or Ruby frees a C function the library
    # still calls; "ok" is printed by that release, during exit
    "gem_exit_waits_for_a_running_callback" => <<~RUBY,
      $running = Queue.new
      Pathconfig::Loader::State.prepend(Module.new do
        def receive(event_pointer)
          super
        ensure
          if $slow && !Thread.current.equal?(MAIN)
            $slow = false
            $running << true
            sleep 0.3
          end
        end
      end)
      Pathconfig::Callbacks.singleton_class.prepend(Module.new do
        def release(pointer)
          super.tap { puts "ok" if $exiting }
        end
      end)
      seen = Queue.new
      $loader = Pathconfig::Loader.new([Pathconfig::ServerSource.new(URL)], refresh_interval: 0.01)
      $loader.on_change = ->(event) { seen << event }
      $loader.load
      3.times { seen.pop }
      $slow = true
      $running.pop
      $exiting = true
    RUBY
    # raw: pathconfig_loader_free from inside the callback on the polling
    # thread (run by ffi on its own thread): the header says it returns at once
    "raw_free_from_inside_the_polling_callback" => <<~RUBY,
      ptr = raw_loader
      done = Queue.new
      callback = FFI::Function.new(:void, %i[pointer pointer]) do |_event, _payload|
        next if Thread.current.equal?(MAIN) || !done.empty?
        Pathconfig::Native.pathconfig_loader_free(ptr)
        done << true
      end
      Pathconfig::Native.pathconfig_loader_set_callback(ptr, callback, nil, nil)
      Pathconfig::Native.pathconfig_loader_load(ptr, nil)
      done.pop
      puts "ok"
    RUBY
    # raw: pathconfig_loader_load from inside the callback on the polling
    # thread: the header says PATHCONFIG_E_MISUSE at once
    "raw_load_from_inside_the_polling_callback" => <<~RUBY,
      ptr = raw_loader
      codes = Queue.new
      callback = FFI::Function.new(:void, %i[pointer pointer]) do |_event, _payload|
        next if Thread.current.equal?(MAIN) || !codes.empty?
        codes << Pathconfig::Native.pathconfig_loader_load(ptr, nil)
      end
      Pathconfig::Native.pathconfig_loader_set_callback(ptr, callback, nil, nil)
      Pathconfig::Native.pathconfig_loader_load(ptr, nil)
      code = codes.pop
      raise "load from inside the callback returned \#{code}, not PATHCONFIG_E_MISUSE" unless code == Pathconfig::ErrorCode::E_MISUSE
      Pathconfig::Native.pathconfig_loader_free(ptr)
      puts "ok"
    RUBY
    # raw: pathconfig_loader_set_callback from inside the callback on the
    # polling thread (it replaces itself): the header says it works
    "raw_set_callback_from_inside_the_polling_callback" => <<~RUBY,
      ptr = raw_loader
      done = Queue.new
      other = FFI::Function.new(:void, %i[pointer pointer]) { |_e, _p| }
      callback = FFI::Function.new(:void, %i[pointer pointer]) do |_event, _payload|
        next if Thread.current.equal?(MAIN) || !done.empty?
        done << Pathconfig::Native.pathconfig_loader_set_callback(ptr, other, nil, nil)
      end
      Pathconfig::Native.pathconfig_loader_set_callback(ptr, callback, nil, nil)
      Pathconfig::Native.pathconfig_loader_load(ptr, nil)
      done.pop
      Pathconfig::Native.pathconfig_loader_free(ptr)
      puts "ok"
    RUBY
    # raw: pathconfig_loader_free from another thread that holds the GVL (an
    # attachment without blocking: true) while the polling thread's callback
    # waits for the GVL: the library must not wait for that callback
    "raw_free_holding_the_gvl_while_the_polling_callback_runs" => <<~RUBY,
      module Held
        extend FFI::Library
        ffi_lib Pathconfig::Native::LIBRARY_PATH
        attach_function :pathconfig_loader_free, [:pointer], :void # GVL held
      end
      ptr = raw_loader
      inside = Queue.new
      callback = FFI::Function.new(:void, %i[pointer pointer]) do |_event, _payload|
        next if Thread.current.equal?(MAIN)
        inside << true
        sleep 0.3 # gives up the GVL; needs it back to return
      end
      Pathconfig::Native.pathconfig_loader_set_callback(ptr, callback, nil, nil)
      Pathconfig::Native.pathconfig_loader_load(ptr, nil)
      inside.pop
      Held.pathconfig_loader_free(ptr)
      puts "ok"
    RUBY
    # raw: a GC finalizer that frees a polling loader, run on ffi's callback
    # thread inside the callback (it must run there: the test checks it).
    # The finalizer's proc is made by a method, so that it captures ptr and
    # freed only: a proc made where the finalized object is a local variable
    # captures that variable, and an object its own finalizer references is
    # never collected (the finalizer would never run, whatever the library).
    "raw_finalizer_frees_on_the_callback_thread" => <<~RUBY,
      ptr = raw_loader
      freed = Queue.new
      def freeing(ptr, freed)
        proc { Pathconfig::Native.pathconfig_loader_free(ptr); freed << [Thread.current, $inside] }
      end
      callback = FFI::Function.new(:void, %i[pointer pointer]) do |_event, _payload|
        next if Thread.current.equal?(MAIN) || $made
        $made = true
        $inside = true
        ObjectSpace.define_finalizer(Object.new, freeing(ptr, freed))
        GC.start
        200.times { Thread.pass }
        $inside = false
      end
      Pathconfig::Native.pathconfig_loader_set_callback(ptr, callback, nil, nil)
      Pathconfig::Native.pathconfig_loader_load(ptr, nil)
      GC.start while freed.empty? && (sleep 0.01 || true)
      thread, inside = freed.pop
      puts "freed on \#{thread.equal?(MAIN) ? 'the main thread' : thread.name}\#{' inside the callback' if inside}"
      raise "the finalizer did not run inside the polling callback" unless inside && !thread.equal?(MAIN)
      puts "ok"
    RUBY
    # fork while the polling thread is inside a download (a Puma worker forked
    # after the app made its loader): in the child, load and refresh raise
    # MisuseError with E_FORKED at once (a patience longer than the scenario's
    # timeout shows they are not retried as a refusal during a callback is),
    # current is the configuration of the fork, and close returns
    "gem_a_forked_child_is_refused_its_parents_loader" => <<~RUBY,
      require "socket"
      Pathconfig::Loader.misuse_patience = 3600
      listener = TCPServer.new("127.0.0.1", 0)
      held = Queue.new
      body = File.read(File.join(ROOT_DIR, "c.json"))
      Thread.new do
        loop do
          conn = listener.accept
          conn.readpartial(65536)
          # the load's request is answered; the polling refresh's never is
          conn.write("HTTP/1.1 200 OK\r\nContent-Length: \#{body.bytesize}\r\nConnection: close\r\n\r\n\#{body}") if held.empty?
          held << conn
        end
      end
      url = "http://127.0.0.1:\#{listener.addr[1]}/c.json"
      loader = Pathconfig::Loader.new([Pathconfig::ServerSource.new(url)], timeout: 60, refresh_interval: 0.02)
      loader.load
      expected = loader.current.properties("/messages/new").to_h
      wait_for("the polling refresh's request") { held.size >= 2 }
      pid = fork do
        codes = %i[load refresh].map do |call|
          loader.public_send(call)
          "\#{call} returned"
        rescue Pathconfig::MisuseError => e
          [e.code, e.message.include?("fork()")]
        end
        same = loader.current.properties("/messages/new").to_h == expected
        loader.close
        puts "child: \#{codes.inspect}, current \#{same ? 'as at the fork' : 'changed'}"
        # exit! skips the parent's at_exit handlers (the server, the scratch directory)
        exit!(codes == [[Pathconfig::ErrorCode::E_FORKED, true]] * 2 && same)
      end
      Process.wait(pid)
      raise "the child failed: \#{$?}" unless $?.success?
      raise "the parent's loader changed" unless loader.current.properties("/messages/new").to_h == expected
      loader.close
      puts "ok"
    RUBY
  }.freeze

  Outcome = Struct.new(:status, :output, :hung, :seconds)

  # Every scenario, run once, at once.
  def self.outcomes
    @outcomes ||= begin
      threads = SCENARIOS.to_h do |name, body|
        [name, Thread.new { run_scenario(PRELUDE + body) }]
      end
      threads.transform_values(&:value)
    end
  end

  def self.run_scenario(script)
    started = Time.now
    stdin, out, waiter = Open3.popen2e(RbConfig.ruby, "-e", script, pgroup: true)
    stdin.close
    reader = Thread.new { out.read }
    if waiter.join(SCENARIO_TIMEOUT)
      Outcome.new(waiter.value, reader.value, false, Time.now - started)
    else
      Process.kill("KILL", -waiter.pid)
      waiter.join
      Outcome.new(waiter.value, reader.value, true, Time.now - started)
    end
  end

  SCENARIOS.each_key do |name|
    define_method("test_#{name}") do
      outcome = self.class.outcomes.fetch(name)
      flunk "#{name}: hung (killed after #{SCENARIO_TIMEOUT} s); it printed:\n#{outcome.output}" if outcome.hung
      assert outcome.status.success?, "#{name}: #{outcome.status}\n#{outcome.output}"
      assert_equal "ok", outcome.output.lines.last&.chomp, outcome.output
    end
  end

  # --- sources and events, in this process ---------------------------------------

  def with_server
    dir = scratch_dir
    File.write(File.join(dir, "c.json"), File.read(EXAMPLE))
    server = FileServer.new(dir)
    yield server, dir
  ensure
    server&.stop
  end

  def test_file_then_server_with_cache_and_304
    with_server do |server, dir|
      cache = File.join(dir, "cache")
      bundle = File.join(dir, "bundle.json")
      File.write(bundle, '{"rules":[{"patterns":[".*"],"properties":{"from":"bundle"}}]}')
      loader = Pathconfig::Loader.new([Pathconfig::FileSource.new(bundle), Pathconfig::ServerSource.new(server.url("c.json"))],
                                      cache_dir: cache, timeout: 5)
      events = loader.load
      assert_equal %i[applied applied], events.map(&:kind)
      assert_equal %i[file server], events.map(&:source_kind)
      assert_equal "modal", loader.current.properties("/a/new").context
      assert_kind_of Pathconfig::PathConfiguration, events.last.configuration
      assert File.file?(loader.cache_file(server.url("c.json")))
      assert_equal %i[not_modified], loader.refresh.map(&:kind)
      loader.close
      assert_raises(Pathconfig::ClosedError) { loader.load }
    end
  end

  def test_failures_are_events_and_load_raises_only_when_nothing_is_current
    with_server do |server, dir|
      good = Pathconfig::DataSource.new(File.read(EXAMPLE), "bundled")
      loader = Pathconfig::Loader.new([good, Pathconfig::ServerSource.new(server.url("missing.json"))])
      events = loader.load
      assert_equal %i[applied failed], events.map(&:kind)
      failure = events.last.error
      assert_kind_of Pathconfig::DownloadError, failure
      assert_equal [Pathconfig::DownloadReason::HTTP_STATUS, 404], [failure.reason, failure.http_status]
      assert_equal "bundled", events.first.location
      loader.close

      broken = File.join(dir, "broken.json")
      File.write(broken, "{\n  \"rules\": 3\n}")
      only = Pathconfig::Loader.new([{ file: broken }])
      error = assert_raises(Pathconfig::ConfigError) { only.load }
      assert_equal [Pathconfig::ErrorCode::E_SCHEMA, 2], [error.code, error.line]
      assert_nil only.current
      only.close
    end
  end

  def test_arguments_are_checked
    assert_raises(TypeError) { Pathconfig::Loader.new("file.json") }
    assert_raises(TypeError) { Pathconfig::Loader.new([], timeout: "1") }
    error = assert_raises(Pathconfig::ConfigError) { Pathconfig::Loader.new([{ server: "ftp://x/y" }]) }
    assert_equal Pathconfig::ErrorCode::E_OPTIONS, error.code
    assert_raises(Pathconfig::ConfigError) { Pathconfig::Loader.new([], profile: "nope") }
  end

  # The library refuses load and refresh while the callback runs on another
  # thread (the polling thread delivering an event); the gem waits for its
  # callback instead of raising. Every few milliseconds an event is being
  # delivered, so without the wait some of these calls would raise.
  def test_refresh_while_the_polling_thread_delivers_events_never_raises_misuse
    with_server do |server, _dir|
      delivered = Queue.new
      loader = Pathconfig::Loader.new([Pathconfig::ServerSource.new(server.url("c.json"))],
                                      refresh_interval: 0.005) { |event| delivered << event }
      loader.load
      calls = 0
      deadline = Time.now + 1.5
      while Time.now < deadline
        assert_equal %i[not_modified], loader.refresh.map(&:kind)
        calls += 1
      end
      sleep 0.05
      # load's event, one per refresh, and the polling thread's own
      assert_operator delivered.size, :>, calls + 1, "the polling thread delivered events meanwhile"
      loader.close
    end
  end

  # Thread#raise (Ctrl-C's Interrupt, Rack::Timeout) and Timeout reach a
  # thread in #load once the library's call returns. Arriving inside the
  # gem's callback, a raise was lost there (rescued, with a warning), and
  # Timeout's throw unwound through the library's frames, after which every
  # load on that thread was refused as "called from the loader's own
  # callback".
  def test_interrupts_reach_a_thread_in_load_after_the_librarys_call
    doc = JSON.generate({ "rules" => Array.new(300) { |i| { "patterns" => ["/p#{i}$"], "properties" => { "context" => "modal" } } } })
    loader = Pathconfig::Loader.new([Pathconfig::DataSource.new(doc, "a"), Pathconfig::DataSource.new(doc, "b")])
    boom = Class.new(StandardError)
    20.times do |round|
      worker = Thread.new do
        Thread.current.report_on_exception = false
        loop { loader.load }
      end
      sleep 0.002 + (rand * 0.01)
      worker.raise(boom)
      assert_raises(boom, "round #{round}") { worker.join(5) or flunk "round #{round}: the raise was lost" }
    end
    30.times do |round|
      assert_raises(Timeout::Error) { Timeout.timeout(0.002 + (rand * 0.005)) { loop { loader.load } } }
      assert_equal "modal", loader.load.last.configuration.properties("/p7").context, "round #{round}"
    end
  ensure
    loader&.close
  end

  # A refusal that does not end (which the library never gives for long) is
  # raised once Loader.misuse_patience has passed, not waited on forever.
  def test_a_refusal_that_lasts_is_raised_after_the_patience
    loader = Pathconfig::Loader.new([Pathconfig::DataSource.new('{"rules": []}', "a")])
    loader.load
    patience = Pathconfig::Loader.misuse_patience
    Pathconfig::Loader.misuse_patience = 0.05
    refused = ->(_pointer, err) { Pathconfig::ErrorCode::E_MISUSE.tap { err[:code] = Pathconfig::ErrorCode::E_MISUSE } }
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    Pathconfig::Native.stub(:pathconfig_loader_refresh, refused) do
      Timeout.timeout(5) { assert_raises(Pathconfig::MisuseError) { loader.refresh } }
    end
    elapsed = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
    assert_operator elapsed, :>=, 0.05, "it kept calling for the patience"
    assert_operator elapsed, :<, 2, "and then gave up"
    assert_equal [], loader.refresh.map(&:kind), "the real library answers again: a data source has nothing to refresh"
  ensure
    Pathconfig::Loader.misuse_patience = patience if patience
    loader&.close
  end

  def test_events_reach_on_change_on_the_loaders_own_thread_in_order
    with_server do |server, _dir|
      seen = Queue.new
      loader = Pathconfig::Loader.new([Pathconfig::ServerSource.new(server.url("c.json"))]) do |event|
        seen << [event.kind, Thread.current.name, Thread.current.equal?(Thread.main)]
      end
      loader.load
      loader.refresh
      assert_equal [:applied, "pathconfig loader events", false], seen.pop
      assert_equal [:not_modified, "pathconfig loader events", false], seen.pop
      loader.close
    end
  end
end
