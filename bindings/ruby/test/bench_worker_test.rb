# frozen_string_literal: true

require_relative "test_helper"
require "open3"

# bench/peers.rb, the Ruby worker of `make bench` and of this gem's own
# bench, speaks its protocol on the smallest corpus: loaded, its own check
# of every read against the answers clean, one short round timing every
# peer. `make bench` is not part of `make test`: a change to the gem that
# breaks the worker (its direct calls once passed an owned result where an
# address goes) fails here instead.
class BenchWorkerTest < Minitest::Test
  WORKER = File.expand_path("../bench/peers.rb", __dir__)
  CORPUS = File.join(ROOT, "bench", "corpora")

  def run_worker(env = {})
    args = [RbConfig.ruby, WORKER, File.join(CORPUS, "rules-10.json"), File.join(CORPUS, "urls-10.txt"),
            "--check-every", "50"]
    out, err, status = Open3.capture3(env, *args, stdin_data: "round 0.02\nquit\n")
    assert status.success?, "the worker failed: #{err}"
    ready, round = out.lines.map { |line| JSON.parse(line) }
    [ready, round.fetch("round")]
  end

  def test_the_worker_checks_and_times_every_peer
    ready, round = run_worker
    assert_equal "ruby", ready["ready"]
    assert_equal 200, ready.dig("check", "urls")
    assert_equal [0, 0], [ready.dig("check", "binding"), ready.dig("check", "rb_regexp")], ready["check"].inspect
    assert_equal ready["peers"].sort, round.keys.sort
    expected = %w[rb_typed rb_lookup rb_raw]
    expected += %w[rb_direct_typed rb_hash_json rb_hash_getters rb_autopointer rb_regexp] if Pathconfig::SPEEDUPS
    assert_empty expected - round.keys.map { |peer| peer.delete_suffix("_yjit").delete_suffix("_ffi") }
    round.each { |peer, seconds| assert_operator seconds, :>, 0, peer }
  end
end
