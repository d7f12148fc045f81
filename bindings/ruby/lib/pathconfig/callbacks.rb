# frozen_string_literal: true

module Pathconfig
  # Ruby objects the library holds for a while: a rule's predicate and
  # configurer, a loader's event state. C keeps a `void *` (a rule's context,
  # a loader's payload) and calls one free function with it once it no longer
  # needs it. Here that pointer is a key into a Hash, and FREE is the one free
  # function every registration names: it drops the key, and with it the
  # reference the gem keeps. So an object stays alive exactly as long as C may
  # use it.
  module Callbacks
    @held = {}
    @next_key = 0
    @lock = Mutex.new

    class << self
      # Keeps `object` until the library calls FREE with the returned
      # pointer (pass it as the context or payload).
      def hold(object)
        key = @lock.synchronize { @next_key += 1 }
        @held[key] = object
        FFI::Pointer.new(key)
      end

      def held(pointer)
        @held[pointer.address]
      end

      def release(pointer)
        @held.delete(pointer.address)
      end

      def size
        @held.size
      end

      # Runs the block, a C call that may call the gem back on this thread,
      # with Ruby's asynchronous interrupts held until it returns (they
      # arrive then, in Ruby code). One that arrived inside a callback was
      # lost there (the gem's callbacks rescue what they can: Ctrl-C's
      # Interrupt, Thread#raise) or unwound through the library's frames,
      # which the header forbids ("must return normally"): Timeout.timeout,
      # which throws, and Thread#kill. A loader so unwound stayed "running
      # its chain" for that thread for good.
      def deferring_interrupts(&block)
        Thread.handle_interrupt(DEFERRED, &block)
      end
    end

    DEFERRED = { Object => :never }.freeze

    # The payload free through ffi; with the C extension, what its
    # free_payload hands a call from a thread of the library's to.
    FFI_FREE = FFI::Function.new(:void, [:pointer]) { |pointer| Callbacks.release(pointer) }
    # pathconfig_loader_payload_free and pathconfig_add_rule's free_context;
    # lives as long as the process. With the C extension its free_payload,
    # which runs no Ruby code (speedups.c says why).
    FREE = SPEEDUPS ? FFI::Pointer.new(Speedups.bind_payloads(@held, FFI_FREE.address)) : FFI_FREE
  end
end
