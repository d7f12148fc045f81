# frozen_string_literal: true

# Runs the Ruby benchmark: for each corpus size, the C worker (bench/c's
# pathconfig-peers: the library's C ABI, as `make bench` runs it) and the
# Ruby worker (peers.rb) side by side, as bench/run.py drives its workers:
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

  def initialize(name, argv)
    @name = name
    warn "  starting #{name}: #{argv.join(' ')}"
    @stdin, @stdout, @thread = Open3.popen2(*argv)
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

results = {}
options[:sizes].each do |size|
  rules = File.join(options[:corpus], "rules-#{size}.json")
  urls = File.join(options[:corpus], "urls-#{size}.txt")
  every = (size > 1000 ? 10 : 1).to_s
  warn "#{size} rules"
  workers = [Worker.new("C", [options[:peers], rules, urls, "--check-every", every]),
             Worker.new("Ruby", [RbConfig.ruby, File.join(__dir__, "peers.rb"), rules, urls, "--check-every", every])]
  samples = Hash.new { |h, k| h[k] = [] }
  options[:rounds].times do |r|
    workers.rotate(r).each { |w| w.round(options[:budget]).each { |k, s| samples[k] << s } }
    warn "  round #{r + 1}/#{options[:rounds]}"
  end
  workers.each(&:quit)
  results[size] = { "median_us" => samples.transform_values { |xs| median(xs) * 1e6 },
                    "check" => workers.last.ready["check"], "refused" => workers.last.ready["refused"] }
end

us = ->(size, key) { results[size]["median_us"][key] }
fmt = ->(x) { x.nil? ? "" : (x >= 100 ? format("%.0f", x) : format("%.2f", x)) }
puts "| rules | C typed | Ruby typed (gem) | Ruby typed / C typed | Ruby typed, direct calls | C resolve | C map | " \
     "Ruby lookup + Hash (gem) | Ruby Hash, JSON per lookup | Ruby Hash, getters per lookup | Ruby typed, AutoPointer | " \
     "Ruby Regexp loop + Hash | Regexp loop / gem lookup + Hash |"
puts "|---:|#{'---:|' * 12}"
results.each_key do |size|
  cells = [us[size, "c_typed"], us[size, "rb_typed"], nil, us[size, "rb_direct_typed"], us[size, "c_resolve"],
           us[size, "c_map"], us[size, "rb_lookup"], us[size, "rb_hash_json"], us[size, "rb_hash_getters"],
           us[size, "rb_autopointer"], us[size, "rb_regexp"], nil].map { |x| fmt[x] }
  cells[2] = format("%.2f×", us[size, "rb_typed"] / us[size, "c_typed"])
  cells[11] = format("%.1f×", us[size, "rb_regexp"] / us[size, "rb_lookup"])
  puts "| #{size} | #{cells.join(' | ')} |"
end
puts
results.each do |size, r|
  c = r["check"]
  puts "- #{size} rules: #{c['urls']} URLs checked; the gem's Hash, the JSON Hash and the getters' Hash differ on " \
       "#{c['binding']}; the Ruby Regexp loop answers differently on #{c['rb_regexp']} " \
       "(Onigmo is not the apps' engine)#{"; first: #{c['first_difference']}" if c['first_difference']}; " \
       "Regexp refused #{r['refused']['rb_regexp']} patterns"
end
File.write(options[:json], JSON.pretty_generate(results)) if options[:json]
