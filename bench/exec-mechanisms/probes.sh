# each probe tries to create /workspace/<NAME> through the denied program or a copy of its bytes
run() { name=$1; shift; "$@" >/dev/null 2>&1; if [ -e /workspace/$name ]; then echo "RAN     $name"; else echo "blocked $name"; fi; }
run direct /opt/tools/denied-tool /workspace/direct
run viabash bash -c '/opt/tools/denied-tool /workspace/viabash'
run pysub python3 -c 'import subprocess; subprocess.run(["/opt/tools/denied-tool","/workspace/pysub"])'
run copyexec sh -c 'cp /opt/tools/denied-tool /workspace/c2; chmod +x /workspace/c2; /workspace/c2 /workspace/copyexec'
run hostcopy /workspace/copy /workspace/hostcopy
run tmpcopy sh -c 'cp /workspace/copy /tmp/c; chmod +x /tmp/c; /tmp/c /workspace/tmpcopy'
run devcopy sh -c 'cp /workspace/copy /dev/c; chmod +x /dev/c; /dev/c /workspace/devcopy'
run ldso /lib64/ld-linux-x86-64.so.2 /workspace/copy /workspace/ldso
run memfd python3 -c 'import os; fd=os.memfd_create("x",0); os.write(fd, open("/workspace/copy","rb").read()); os.execve(fd, ["x","/workspace/memfd"], {})'
run ldmemfd python3 -c 'import os; fd=os.memfd_create("x",0); os.write(fd, open("/workspace/copy","rb").read()); os.set_inheritable(fd, True); os.execv("/lib64/ld-linux-x86-64.so.2", ["ld", "/proc/self/fd/%d" % fd, "/workspace/ldmemfd"])'
run shmopen python3 -c 'import os; p="/dev/shm/c"; open(p,"wb").write(open("/workspace/copy","rb").read()); os.chmod(p,0o755); os.execv(p,[p,"/workspace/shmopen"])'
run otmpfile python3 -c 'import os; fd=os.open("/tmp", os.O_TMPFILE|os.O_RDWR, 0o755); os.write(fd, open("/workspace/copy","rb").read()); r=os.open("/proc/self/fd/%d" % fd, os.O_RDONLY); os.close(fd); os.execve(r, ["x","/workspace/otmpfile"], {})'
