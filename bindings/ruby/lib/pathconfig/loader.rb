# frozen_string_literal: true

require "weakref"

module Pathconfig
  # Keeps a configuration current from an ordered list of sources: files, JSON
  # in memory and server copies (downloaded over HTTP(S), cached on disk), over
  # pathconfig_loader (include/pathconfig/loader.h).
  #
  # sources:: FileSource, ServerSource, DataSource, or Hashes in the C form.
  # cache_dir:: directory for server copies (nil: no cache).
  # timeout:: seconds one download may take (default 30).
  # max_body_bytes:: the largest body accepted.
  # refresh_interval:: seconds; when set, #load starts the library's polling
  #                    thread, which refreshes at this interval until #close.
  # user_agent, ca_file, follow_redirects_to_other_hosts:: as in the header.
  # profile, match_query_strings, backend, lenient, base_url, merge,
  # result_cache_size, max_url_bytes:: as for PathConfiguration.from_file,
  #                                    applied to every source.
  # on_change (or a block):: called with each LoaderEvent; see #on_change=.
  #
  # How events reach Ruby. The library calls its callback on the thread that
  # runs the chain: the caller of #load or #refresh, or its own polling
  # thread, where ffi runs the callback on a Ruby thread of ffi's own. The
  # gem's callback does the least it can there: it copies the event into a
  # LoaderEvent, hands it to the #load or #refresh running on that thread (which
  # returns its events), and pushes it onto a Queue. The on_change block runs
  # on a Ruby thread the loader owns ("pathconfig loader events", started
  # when an event is queued and ended when none is left), one event at a
  # time, in order, never inside the library's callback: so from the
  # block you may #close the loader, read #current, and keep the event;
  # #load and #refresh there raise MisuseError, as the header documents for
  # its callback. The calls that may wait for the library (load, refresh,
  # close, the callback's registration) release the GVL, so a callback
  # arriving meanwhile on another thread can always run.
  #
  # While the callback runs on another thread (the polling thread delivering
  # an event), the library refuses load and refresh with E_MISUSE, having
  # done nothing (loader.h, 1.1.0). The gem's callback only copies and
  # queues, so #load and #refresh wait for it to return and call again:
  # they never raise MisuseError for an event being delivered elsewhere.
  #
  # The C loader is freed by #close, when the object is garbage-collected (by
  # a thread of the gem's, never inside a finalizer, which may run on ffi's
  # callback thread), or at exit (which waits for a running callback to end,
  # see EXIT_PATIENCE). Configurations already obtained stay valid.
  #
  # A loader belongs to the process that made it. In a child of fork (a Puma
  # or Unicorn worker forked after the app loaded), #load and #refresh raise
  # MisuseError with code E_FORKED at once, having done nothing: the polling
  # thread stayed in the parent. #current and #close still work. Make each
  # worker's loader after the fork (Puma's on_worker_boot).
  class Loader
    include HandleOwner

    # The state the callback, the delivery thread and the finalizer share:
    # never the Loader itself, nor its on_change (a block keeps every local
    # of its scope, the loader's among them), so that the loader can be
    # garbage-collected. The delivery thread reads on_change through a weak
    # reference, and ends once nothing is queued: Ruby scans a thread's
    # stack conservatively, and one that waited there for the next event
    # could keep the loader it last delivered for alive for good.
    class State
      attr_accessor :pointer, :inflight, :closed, :thread, :delivering, :listening
      attr_reader :lock, :queue, :collectors, :name, :receiver

      def initialize(name, loader)
        @name = name
        @loader = WeakRef.new(loader)
        @lock = Mutex.new
        @queue = Queue.new
        @collectors = {}
        @inflight = 0
        @closed = false
        @delivering = false
      end

      # The loader's on_change; nil once it is closed or collected.
      def on_change
        @loader.__getobj__.on_change
      rescue WeakRef::RefError
        nil
      end

      # The C function the library calls: made here, so that its block
      # captures this state, never the Loader (which stays collectable).
      def callback
        FFI::Function.new(:void, %i[pointer pointer]) { |event, _payload| receive(event) }
      end

      # The library's callback: copy, hand over, queue, and start the
      # delivery thread unless it runs. It never reads the loader (so no
      # thread of ffi's keeps it on its stack). Nothing raised here may
      # reach C. #close may run meanwhile on another thread (the library's
      # free does not wait for a running callback): the queue may be closed
      # under it, and the event is then dropped.
      def receive(event_pointer)
        @receiver = Thread.current
        collector = @collectors[Thread.current]
        listening = @listening
        return if collector.nil? && !listening

        event = LoaderEvent.from_c(event_pointer)
        collector&.push(event)
        if listening
          begin
            @queue.push(event)
          rescue ClosedQueueError
            return
          end
          deliver
        end
      rescue Exception => e # rubocop:disable Lint/RescueException -- nothing may unwind into C
        warn "pathconfig: #{@name}: an event could not be copied: #{e.class}: #{e.message}"
      ensure
        @receiver = nil
      end

      # Starts the delivery thread unless it runs.
      def deliver
        @lock.synchronize do
          return if @thread || @closed

          @thread = Thread.new { run }
        end
      end

      # Delivers what is queued, then ends.
      def run
        Thread.current.name = "pathconfig loader events"
        Thread.current.report_on_exception = false
        while (event = next_event)
          call_on_change(event)
        end
      end

      # The next event, or nil when none is queued (or the queue is closed):
      # then this thread is done, and the next event starts another. Only
      # this thread takes from the queue, so pop never waits here.
      def next_event
        @lock.synchronize do
          next @queue.pop unless @queue.empty?

          @thread = nil
        end
      end

      def call_on_change(event)
        block = on_change
        return unless block

        @delivering = true
        begin
          block.call(event)
        rescue Exception => e # rubocop:disable Lint/RescueException -- the chain goes on, as in Python
          warn "pathconfig: #{@name}: on_change raised #{e.class}: #{e.message}\n  #{e.backtrace&.first(5)&.join("\n  ")}"
        ensure
          @delivering = false
        end
      end

      def delivering_here?
        @delivering && Thread.current.equal?(@thread)
      end

      # Marks the loader closed; frees it now unless calls are in flight (the
      # last of them frees it). Stops the delivery: events still queued are
      # dropped, and unless called from the delivery thread itself, a block
      # running now has returned when this returns.
      def close
        free_now = @lock.synchronize do
          was = @closed
          @closed = true
          !was && @inflight.zero?
        end
        free if free_now
        @queue.clear
        @queue.close
        thread = @thread
        thread.join if thread && !Thread.current.equal?(thread) && thread.alive?
        OPEN.delete(self)
        nil
      end

      # pathconfig_loader_free, once; the GVL released while it waits for a
      # polling refresh in progress to end (its download abandoned within
      # about a second; never for a running callback).
      def free
        pointer = @lock.synchronize do
          p = @pointer
          @pointer = nil
          p
        end
        Callbacks.deferring_interrupts { Native.pathconfig_loader_free(pointer) } if pointer
      end

      def enter
        @lock.synchronize do
          raise ClosedError, "operation on a closed Pathconfig::Loader" if @closed

          @inflight += 1
          @pointer
        end
      end

      def leave
        free_now = @lock.synchronize do
          @inflight -= 1
          @closed && @inflight.zero?
        end
        free if free_now
      end
    end

    # Loaders not closed yet: closed at exit, while Ruby can still run the
    # callbacks a polling thread is delivering.
    OPEN = Set.new
    # Closes loaders their finalizers gave up. A finalizer may run on any
    # Ruby thread at any moment: on the delivery thread, on a thread its
    # on_change block waits for (where joining the delivery thread, as
    # close does, would wait for itself), or on ffi's callback thread inside
    # the library's callback, where freeing waits for that callback with a
    # 1.1.0 library built before issue 39's fix (it reports the same version,
    # so the gem cannot tell). The reaper, a thread of its own, is safe in
    # each case. Each new loader starts it unless it runs: in a child of
    # fork (a Puma worker) the parent's reaper is a dead Thread.
    REAPER = Queue.new
    @reaper = nil
    @reaper_lock = Mutex.new

    class << self
      def start_reaper
        @reaper_lock.synchronize do
          next if @reaper&.alive?

          @reaper = Thread.new do
            Thread.current.name = "pathconfig loader reaper"
            while (state = REAPER.pop)
              state.close
            end
          end
        end
      end

      def finalizer(state)
        proc { REAPER.push(state) unless state.closed }
      end
    end

    # The loaders' callbacks the library may still call, as the payloads
    # it frees once their last call has ended (Callbacks holds each until then).
    PAYLOADS = []
    PAYLOADS_LOCK = Mutex.new
    # How long exit waits for those calls, in seconds.
    EXIT_PATIENCE = 2.0

    # At exit Ruby frees every object, the C functions ffi made among them,
    # while the library may still call one: pathconfig_loader_free never
    # waits for a running callback, so a polling thread that began a call
    # (or was about to) goes on after it returns, and would jump into freed
    # memory. So exit closes the loaders still open, then waits, at most
    # EXIT_PATIENCE seconds, until the library has released every loader's
    # callback; when none is running, that is at once.
    at_exit do
      OPEN.to_a.each(&:close)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + EXIT_PATIENCE
      payloads = PAYLOADS_LOCK.synchronize { PAYLOADS.dup }
      until payloads.none? { |payload| Callbacks.held(payload) } ||
            Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
        sleep 0.001
      end
    end

    attr_reader :sources

    def initialize(sources, cache_dir: nil, timeout: nil, max_body_bytes: nil, refresh_interval: nil,
                   user_agent: nil, ca_file: nil, follow_redirects_to_other_hosts: nil, on_change: nil,
                   **load_options, &block)
      sources_json = Sources.json(sources)
      options_json = Sources.options_json(cache_dir: cache_dir, timeout: timeout, max_body_bytes: max_body_bytes,
                                          refresh_interval: refresh_interval, user_agent: user_agent, ca_file: ca_file,
                                          follow_redirects_to_other_hosts: follow_redirects_to_other_hosts,
                                          load_options: load_options)
      on_change ||= block
      raise TypeError, "on_change must respond to call" unless on_change.nil? || on_change.respond_to?(:call)

      @sources = sources.dup.freeze
      state = @state = State.new("Pathconfig::Loader with #{sources.size} source(s)", self)
      err = Native::ErrorStruct.new
      pointer = Native.pathconfig_loader_new(sources_json, options_json, err)
      raise Pathconfig.error_from(err) if pointer.null?

      # Registered once, even without on_change: load and refresh collect
      # their events through it. The function is held until the library
      # frees the payload (when the loader is freed).
      function = state.callback
      payload = Callbacks.hold(function)
      PAYLOADS_LOCK.synchronize do
        PAYLOADS.delete_if { |held| Callbacks.held(held).nil? }
        PAYLOADS << payload
      end
      status = Native.pathconfig_loader_set_callback(pointer, function, payload, Callbacks::FREE)
      unless status == Native::OK
        error = Pathconfig.last_error
        Callbacks.release(payload)
        Native.pathconfig_loader_free(pointer)
        raise error
      end
      state.pointer = pointer
      self.class.start_reaper
      OPEN.add(state)
      ObjectSpace.define_finalizer(self, self.class.finalizer(state))
      self.on_change = on_change if on_change
    end

    # Runs the whole chain once, synchronously (downloads included), then
    # starts polling when refresh_interval is set. Returns the events of this
    # run, in order (the same objects on_change receives). Raises
    # ConfigError, FileError or DownloadError only when no configuration is
    # current afterwards; MisuseError from inside this loader's on_change, or
    # (E_FORKED) in a child of fork on a loader made before the fork.
    def load
      run(:pathconfig_loader_load, "load")
    end

    # Downloads every server source again, conditionally when a copy is known
    # (a 304 is a :not_modified event); before the first #load, runs load's
    # chain instead (without polling). Returns the events of this run.
    def refresh
      run(:pathconfig_loader_refresh, "refresh")
    end

    # The newest good configuration (a PathConfiguration of its own
    # reference), or nil when nothing has loaded yet. Never waits for the network.
    def current
      call do |pointer|
        handed = Native.pathconfig_loader_current(pointer)
        if Native.address_of(handed).zero?
          raise Pathconfig.last_error unless Native.last_code.zero?

          return nil
        end
        PathConfiguration.wrap(handed)
      end
    end

    # The path of the cache file that holds (or would hold) url's copy, or
    # nil when the loader has no cache_dir.
    def cache_file(url)
      url = Text.arg(url, "url")
      call do |pointer|
        text = Native.owned_text(Native.pathconfig_loader_cache_file(pointer, url))
        raise Pathconfig.last_error if text.nil? && !Native.last_code.zero?

        text
      end
    end

    def on_change
      @state.closed ? nil : @on_change
    end

    # Sets the callable called with each LoaderEvent, on the loader's own
    # thread (see the class's documentation); nil stops delivering. Events
    # already queued go to the callable current when each is delivered.
    def on_change=(callable)
      raise TypeError, "on_change must respond to call" unless callable.nil? || callable.respond_to?(:call)
      raise ClosedError, "operation on a closed Pathconfig::Loader" if @state.closed

      @on_change = callable
      @state.listening = !callable.nil?
    end

    # Stops polling (waiting for a refresh in progress), frees the C loader,
    # and stops delivering events (a block running on another thread has
    # returned when this returns). Idempotent; later use raises
    # ClosedError. From inside on_change it works too: the running block goes on.
    def close
      @state.close
      @on_change = nil
    end

    def closed?
      @state.closed
    end

    def inspect
      "#<Pathconfig::Loader sources=#{@sources.size}#{' (closed)' if closed?}>"
    end

    private

    def call
      pointer = @state.enter
      begin
        yield pointer
      ensure
        @state.leave
      end
    end

    # The first and longest pause, in seconds, between calls that the library
    # refused because its callback was running on another thread.
    MISUSE_PAUSE = 0.0002
    MISUSE_PAUSE_MAX = 0.01

    class << self
      # How long, in seconds, load and refresh keep calling while the library
      # refuses them because the callback runs on another thread, before the
      # refusal is raised (MisuseError). 5 by default.
      attr_accessor :misuse_patience
    end
    self.misuse_patience = 5.0

    # Calls load or refresh until the library stops refusing it because this
    # loader's callback runs on another thread (E_MISUSE, nothing done). The
    # gem's callback only copies and queues, so it returns within
    # microseconds; a refusal that lasts Loader.misuse_patience seconds is returned
    # as it is (raised as MisuseError), and so is one on the thread running
    # the callback (a finalizer there).
    def call_past_the_callback(function, pointer, err)
      pause = MISUSE_PAUSE
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + Loader.misuse_patience
      loop do
        status = Callbacks.deferring_interrupts { Native.public_send(function, pointer, err) }
        return status unless status == ErrorCode::E_MISUSE && !Thread.current.equal?(@state.receiver)
        return status if Process.clock_gettime(Process::CLOCK_MONOTONIC) >= deadline

        sleep pause
        pause = [pause * 2, MISUSE_PAUSE_MAX].min
      end
    end

    def run(function, name)
      if @state.delivering_here?
        raise MisuseError.new("Loader##{name} from inside this loader's own on_change: nothing was run " \
                              "(as the library refuses it inside its callback)", ErrorCode::E_MISUSE)
      end
      events = []
      collectors = @state.collectors
      outer = collectors[Thread.current]
      collectors[Thread.current] = events
      err = Native::ErrorStruct.new
      begin
        status = call { |pointer| call_past_the_callback(function, pointer, err) }
      ensure
        if outer
          collectors[Thread.current] = outer
        else
          collectors.delete(Thread.current)
        end
      end
      return events if status == Native::OK

      error = Pathconfig.error_from(err)
      if error.is_a?(DownloadError)
        failed = events.reverse.find { |e| e.error.is_a?(DownloadError) }
        if failed
          error.reason = failed.error.reason
          error.http_status = failed.error.http_status
          error.url = failed.error.url
        end
      end
      raise error
    end
  end
end
