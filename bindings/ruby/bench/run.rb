# frozen_string_literal: true

# Runs the Ruby benchmark: for each corpus size, the C worker (bench/c's
# pathconfig-peers: the library's C ABI, as `make bench` runs it) and the
# Ruby workers (peers.rb: one with the gem's C extension, one through ffi
# alone, PATHCONFIG_PURE_RUBY=1, and where this Ruby has YJIT, the gem's own
# peers under `ruby --yjit`) side by side, as bench/run.py drives its workers:
# round after round each worker runs every one of its peers for --budget
# seconds (never two workers at once, a different one first in each round);
# a peer's figure is the median of its rounds. Prints a Markdown table of
# medians (µs per URL) and the ratios the issue asks for.
#
#   ruby bench/run.rb --peers PATH/pathconfig-peers [--rounds 5] [--budget 0.2]
#                     [--sizes 10,100,1000,10000] [--corpus DIR] [--json FILE]
require "json"
require "optparse"
require "open3"

root = File.expand_path("../../..", __dir__)
options = { rounds: 5, budget: 0.2, sizes: [10, 100, 1000, 10_000], corpus: File.join(root, "bench", "corpora") }
OptionParser.new do |o|
  o.on("--peers PATH") { |v| options[:peers] = v }
  o.on("--rounds N", Integer) { |v| options[:rounds] = v }
  o.on("--budget SECONDS", Float) { |v| options[:budget] = v }
  o.on("--sizes LIST") { |v| options[:sizes] = v.split(",").map { |s| Integer(s) } }
  o.on("--corpus DIR") { |v| options[:corpus] = v }
  o.on("--json FILE") { |v| options[:json] = v }
end.parse!
abort "bench/run.rb: --peers PATH (bench/c/build/pathconfig-peers) is needed" unless options[:peers]

# One worker process and its line protocol.
class Worker
  attr_reader :ready, :name

  def initialize(name, argv, env = {})
    @name = name
    warn "  starting #{name}: #{env.map { |k, v| "#{k}=#{v} " }.join}#{argv.join(' ')}"
    @stdin, @stdout, @thread = Open3.popen2(env, *argv)
    @ready = read
  end

  def read
    line = @stdout.gets or abort("bench: the #{@name} worker stopped without answering")
    JSON.parse(line)
  end

  def round(budget)
    @stdin.puts "round #{budget}"
    @stdin.flush
    read.fetch("round")
  end

  def quit
    @stdin.puts "quit"
    @stdin.close
    @thread.join
  end
end

def median(xs)
  s = xs.sort
  n = s.size
  n.odd? ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0
end

# Whether this Ruby runs YJIT (`ruby --yjit`): Debian's 3.1 does.
YJIT = system(RbConfig.ruby, "--yjit", "-e", "exit(defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? 0 : 1)",
              err: File::NULL)

results = {}
options[:sizes].each do |size|
  rules = File.join(options[:corpus], "rules-#{size}.json")
  urls = File.join(options[:corpus], "urls-#{size}.txt")
  every = (size > 1000 ? 10 : 1).to_s
  warn "#{size} rules"
  ruby = [RbConfig.ruby, File.join(__dir__, "peers.rb"), rules, urls, "--check-every", every]
  workers = [Worker.new("C", [options[:peers], rules, urls, "--check-every", every]),
             Worker.new("Ruby", ruby, "PATHCONFIG_PURE_RUBY" => "0"),
             Worker.new("Ruby (ffi alone)", ruby, "PATHCONFIG_PURE_RUBY" => "1")]
  # The gem's own two under Ruby's JIT, where this Ruby has it.
  if YJIT
    workers << Worker.new("Ruby (YJIT)", [RbConfig.ruby, "--yjit", *ruby.drop(1)],
                          "PATHCONFIG_PURE_RUBY" => "0", "PATHCONFIG_BENCH_PEERS" => "rb_typed_yjit,rb_lookup_yjit,rb_empty_yjit")
  end
  unless workers[1].ready["speedups"]
    abort "bench: the gem's C extension did not load (make -C bindings/ruby speedups); its columns would be the ffi path's"
  end
  samples = Hash.new { |h, k| h[k] = [] }
  options[:rounds].times do |r|
    workers.rotate(r).each { |w| w.round(options[:budget]).each { |k, s| samples[k] << s } }
    warn "  round #{r + 1}/#{options[:rounds]}"
  end
  workers.each(&:quit)
  results[size] = { "median_us" => samples.transform_values { |xs| median(xs) * 1e6 },
                    "check" => workers[1].ready["check"], "check_ffi" => workers[2].ready["check"],
                    "refused" => workers[1].ready["refused"] }
end

us = ->(size, key) { results[size]["median_us"][key] }
fmt = ->(x) { x.nil? ? "" : (x >= 100 ? format("%.0f", x) : format("%.2f", x)) }
ratio = ->(a, b) { a && b ? format("%.2f×", a / b) : "" }
puts "| rules | C typed | Ruby typed (gem, C extension) | / C typed | Ruby typed (gem, C extension, YJIT) | / C typed | " \
     "Ruby typed (gem, ffi alone) | / C typed | " \
     "Ruby typed, direct calls | Ruby loop alone | C resolve | C map | Ruby lookup + Hash (gem, C extension) | " \
     "Ruby lookup + Hash (gem, ffi alone) | Ruby Hash, JSON per lookup | Ruby Hash, getters per lookup | " \
     "Ruby typed, AutoPointer | Ruby Regexp loop + Hash | Regexp loop / gem lookup + Hash (C extension) | " \
     "Regexp loop / gem lookup + Hash (ffi alone) |"
puts "|---:|#{'---:|' * 19}"
results.each_key do |size|
  c_typed = us[size, "c_typed"]
  cells = [fmt[c_typed], fmt[us[size, "rb_typed"]], ratio[us[size, "rb_typed"], c_typed],
           fmt[us[size, "rb_typed_yjit"]], ratio[us[size, "rb_typed_yjit"], c_typed],
           fmt[us[size, "rb_typed_ffi"]], ratio[us[size, "rb_typed_ffi"], c_typed],
           fmt[us[size, "rb_direct_typed"]], fmt[us[size, "rb_empty"]], fmt[us[size, "c_resolve"]], fmt[us[size, "c_map"]],
           fmt[us[size, "rb_lookup"]], fmt[us[size, "rb_lookup_ffi"]], fmt[us[size, "rb_hash_json"]],
           fmt[us[size, "rb_hash_getters"]], fmt[us[size, "rb_autopointer"]], fmt[us[size, "rb_regexp"]],
           ratio[us[size, "rb_regexp"], us[size, "rb_lookup"]], ratio[us[size, "rb_regexp"], us[size, "rb_lookup_ffi"]]]
  puts "| #{size} | #{cells.join(' | ')} |"
end
puts
results.each do |size, r|
  c = r["check"]
  puts "- #{size} rules: #{c['urls']} URLs checked; the gem's Hash, the JSON Hash and the getters' Hash differ on " \
       "#{c['binding']} (through ffi alone: #{r['check_ffi']['binding']}); the Ruby Regexp loop answers differently on " \
       "#{c['rb_regexp']} (Onigmo is not the apps' engine)#{"; first: #{c['first_difference']}" if c['first_difference']}; " \
       "Regexp refused #{r['refused']['rb_regexp']} patterns"
end
File.write(options[:json], JSON.pretty_generate(results)) if options[:json]
