# Hand values for TestFirstThreeSteps: the formulas of optimizers.go in
# Python float64, grads [0.5,-1], [0.2,0.4], [-0.3,1.5] from Value [1,-2].
# Run: python3 hand_values.py
import math
G=[[0.5,-1.0],[0.2,0.4],[-0.3,1.5]]
P0=[1.0,-2.0]
def run(name,f):
    p=list(P0); st={}
    out=[]
    for t,g in enumerate(G,1):
        for j in range(2):
            p[j]=f(p[j],g[j],t,st.setdefault(j,{}))
        out.append(list(p))
    print(name, [[repr(x) for x in r] for r in out])
def sgd(lr):
    return lambda p,g,t,s: p-lr*g
def mom(lr,m,nest):
    def f(p,g,t,s):
        v=s.get('v',0.0); v=m*v-lr*g; s['v']=v
        return p+(m*v-lr*g if nest else v)
    return f
def adam(lr,b1,b2,e):
    def f(p,g,t,s):
        m=b1*s.get('m',0)+(1-b1)*g; v=b2*s.get('v',0)+(1-b2)*g*g; s['m']=m; s['v']=v
        a=lr*math.sqrt(1-b2**t)/(1-b1**t)
        return p-a*m/(math.sqrt(v)+e)
    return f
def rms(lr,rho,e,mu,c):
    def f(p,g,t,s):
        ms=rho*s.get('ms',0)+(1-rho)*g*g; s['ms']=ms; d=ms
        if c:
            mg=rho*s.get('mg',0)+(1-rho)*g; s['mg']=mg; d=max(0,ms-mg*mg)
        inc=lr*g/(math.sqrt(d)+e)
        if mu>0:
            mom=mu*s.get('mom',0)+inc; s['mom']=mom; inc=mom
        return p-inc
    return f
def ada(lr,init,e):
    def f(p,g,t,s):
        a=s.get('a',init)+g*g; s['a']=a
        return p-lr*g/(math.sqrt(a)+e)
    return f
run('sgd',sgd(0.1))
run('mom',mom(0.1,0.9,False))
run('nest',mom(0.1,0.9,True))
run('adam',adam(1e-3,0.9,0.999,1e-7))
run('adam2',adam(0.1,0.5,0.9,1e-3))
run('rms',rms(1e-3,0.9,1e-7,0,False))
run('rmsc',rms(0.01,0.8,1e-7,0.5,True))
run('ada',ada(1e-3,0.1,1e-7))
run('ada2',ada(0.5,1.0,1e-7))
