#include "server.h"
#include "harness.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int find_nginx(struct test_server *s)
{
    static const char *const places[] = { "/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/bin/nginx", "/usr/bin/nginx" };
    const char *env = getenv("PATHCONFIG_TEST_NGINX");
    size_t i;
    if (env != NULL && env[0] != '\0') {
        snprintf(s->nginx, sizeof s->nginx, "%s", env);
        if (access(s->nginx, X_OK) == 0) return 0;
        fprintf(stderr, "PATHCONFIG_TEST_NGINX=%s is not executable\n", env);
        return -1;
    }
    for (i = 0; i < sizeof places / sizeof places[0]; i++) {
        if (access(places[i], X_OK) == 0) {
            snprintf(s->nginx, sizeof s->nginx, "%s", places[i]);
            return 0;
        }
    }
    fprintf(stderr, "nginx is not installed, and the loader tests need a real HTTP server: run scripts/install-deps.sh "
                    "(or apt-get install nginx-light), or set PATHCONFIG_TEST_NGINX to an nginx binary\n");
    return -1;
}

/* A port nothing listens on now: bind port 0, read it back, close. */
static int free_port(void)
{
    struct sockaddr_in addr;
    socklen_t len = sizeof addr;
    int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;
    if (fd < 0) return -1;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) == 0 && getsockname(fd, (struct sockaddr *)&addr, &len) == 0)
        port = ntohs(addr.sin_port);
    close(fd);
    return port;
}

static int accepts(int port)
{
    struct sockaddr_in addr;
    int fd = socket(AF_INET, SOCK_STREAM, 0), ok;
    if (fd < 0) return 0;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons((unsigned short)port);
    ok = connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0;
    close(fd);
    return ok;
}

static void path_in(const struct test_server *s, const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", s->prefix, name);
}

int test_write_file(const char *path, const char *contents, size_t len)
{
    FILE *f = fopen(path, "wb");
    int ok;
    if (f == NULL) return -1;
    ok = fwrite(contents, 1, len, f) == len;
    if (fclose(f) != 0) ok = 0;
    return ok ? 0 : -1;
}

static int write_config(const struct test_server *s)
{
    char path[600], text[8192];
    const char *p = s->prefix;
    int n = snprintf(text, sizeof text,
             "daemon off;\n"
             "master_process off;\n"
             "worker_processes 1;\n"
             "pid %s/nginx.pid;\n"
             "error_log %s/error.log;\n"
             "events { worker_connections 64; }\n"
             "http {\n"
             "    log_format probe escape=none '$request_method $request_uri $status inm=[$http_if_none_match] accept=[$http_accept]';\n"
             "    access_log %s/access.log probe;\n"
             "    client_body_temp_path %s/tmp/client;\n"
             "    proxy_temp_path %s/tmp/proxy;\n"
             "    fastcgi_temp_path %s/tmp/fastcgi;\n"
             "    uwsgi_temp_path %s/tmp/uwsgi;\n"
             "    scgi_temp_path %s/tmp/scgi;\n"
             "    types { application/json json; }\n"
             "    default_type application/octet-stream;\n"
             "    server {\n"
             "        listen 127.0.0.1:%d;\n"
             "        root %s/www;\n"
             "        location / {\n"
             "            if (-f $document_root/.fail500) { return 500; }\n"
             "        }\n"
             "    }\n"
             "}\n",
             p, p, p, p, p, p, p, p, s->port, p);
    if (n < 0 || (size_t)n >= sizeof text) return -1;
    path_in(s, "nginx.conf", path, sizeof path);
    return test_write_file(path, text, strlen(text));
}

int server_restart(struct test_server *s)
{
    char conf[600], errlog[600];
    char *argv[8];
    struct timespec pause = { 0, 10 * 1000 * 1000 };
    int i, status;
    pid_t pid;

    path_in(s, "nginx.conf", conf, sizeof conf);
    path_in(s, "error.log", errlog, sizeof errlog);
    argv[0] = s->nginx;
    argv[1] = "-p";
    argv[2] = s->prefix;
    argv[3] = "-c";
    argv[4] = conf;
    argv[5] = "-e";
    argv[6] = errlog;
    argv[7] = NULL;
    pid = fork();
    if (pid < 0) {
        perror("fork");
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        prctl(PR_SET_PDEATHSIG, SIGTERM); /* never outlive the test */
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
        }
        execv(s->nginx, argv);
        _exit(127);
    }
    s->pid = pid;
    for (i = 0; i < 1000; i++) { /* 10 s */
        if (waitpid(pid, &status, WNOHANG) == pid) {
            size_t len = 0;
            char *log = test_read_file(errlog, &len);
            fprintf(stderr, "nginx exited (status %d) on port %d: %s\n", status, s->port, log ? log : "(no error log)");
            free(log);
            s->pid = 0;
            return -1;
        }
        if (accepts(s->port)) return 0;
        nanosleep(&pause, NULL);
    }
    fprintf(stderr, "nginx did not accept connections on port %d within 10 s\n", s->port);
    server_stop(s);
    return -1;
}

int server_start(struct test_server *s, const char *dir)
{
    char path[600];
    memset(s, 0, sizeof *s);
    if (find_nginx(s) != 0) return -1;
    snprintf(s->prefix, sizeof s->prefix, "%s/nginx-XXXXXX", dir);
    if (mkdtemp(s->prefix) == NULL) {
        perror("mkdtemp");
        return -1;
    }
    path_in(s, "www", path, sizeof path);
    mkdir(path, 0700);
    path_in(s, "tmp", path, sizeof path);
    mkdir(path, 0700);
    s->mtime = (long)time(NULL) - 100000;
    s->port = free_port();
    if (s->port <= 0 || write_config(s) != 0) {
        fprintf(stderr, "cannot prepare nginx in %s\n", s->prefix);
        return -1;
    }
    return server_restart(s);
}

void server_stop(struct test_server *s)
{
    int status;
    if (s->pid <= 0) return;
    kill(s->pid, SIGTERM);
    while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR) {}
    s->pid = 0;
}

void server_destroy(struct test_server *s)
{
    server_stop(s);
    if (s->prefix[0] != '\0') test_remove_tree(s->prefix);
}

int server_put(struct test_server *s, const char *name, const char *contents)
{
    char path[600], temporary[620];
    struct timespec times[2];
    snprintf(path, sizeof path, "%s/www/%s", s->prefix, name);
    snprintf(temporary, sizeof temporary, "%s.tmp", path);
    if (test_write_file(temporary, contents, strlen(contents)) != 0) return -1;
    s->mtime += 1;
    times[0].tv_sec = times[1].tv_sec = (time_t)s->mtime;
    times[0].tv_nsec = times[1].tv_nsec = 0;
    if (utimensat(AT_FDCWD, temporary, times, 0) != 0) return -1;
    return rename(temporary, path);
}

int server_fail500(struct test_server *s, int on)
{
    char path[600];
    snprintf(path, sizeof path, "%s/www/.fail500", s->prefix);
    if (on) return test_write_file(path, "", 0);
    return unlink(path) == 0 || errno == ENOENT ? 0 : -1;
}

void server_url(const struct test_server *s, const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "http://127.0.0.1:%d/%s", s->port, name);
}

static int log_count_now(const struct test_server *s, const char *a, const char *b);

int server_log_count(const struct test_server *s, const char *a, const char *b, int expected)
{
    struct timespec pause = { 0, 10 * 1000 * 1000 };
    int i, count = log_count_now(s, a, b);
    for (i = 0; i < 200 && count < expected; i++) {
        nanosleep(&pause, NULL);
        count = log_count_now(s, a, b);
    }
    return count;
}

static int log_count_now(const struct test_server *s, const char *a, const char *b)
{
    char path[600];
    char *log, *line, *next;
    int count = 0;
    path_in(s, "access.log", path, sizeof path);
    log = test_read_file(path, NULL);
    if (log == NULL) return 0;
    for (line = log; *line != '\0'; line = next) {
        next = strchr(line, '\n');
        if (next != NULL) *next++ = '\0';
        else next = line + strlen(line);
        if (strstr(line, a) != NULL && (b == NULL || strstr(line, b) != NULL)) count++;
    }
    free(log);
    return count;
}

void test_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        if (d != NULL) {
            while ((e = readdir(d)) != NULL) {
                char child[1024];
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
                snprintf(child, sizeof child, "%s/%s", path, e->d_name);
                test_remove_tree(child);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}
